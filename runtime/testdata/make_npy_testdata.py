#!/usr/bin/env python3
"""Writes the golden .npy files that runtime/npy_test.cc reads.

NumPy is needed to run it but not to build or test Tessel, so the outputs are committed.
Regenerate them (from the repository root) with:

    python3 runtime/testdata/make_npy_testdata.py runtime/testdata

The values here are repeated in npy_test.cc; change both together.
"""
import os
import struct
import sys

import numpy as np


def save(directory, name, array, version=None):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=False)


def save_with_header(directory, name, descr, shape, data):
    """A version 1.0 file with a hand-written header, for dtypes NumPy cannot name itself."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    unpadded = 10 + len(header) + 1
    header += " " * ((64 - unpadded % 64) % 64) + "\n"
    with open(os.path.join(directory, name), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(data)


def main():
    directory = sys.argv[1]
    save(directory, "pred_2x3.npy", np.array([[True, False, True], [False, False, True]]))
    save(directory, "s8_4.npy", np.array([-128, -1, 0, 127], dtype=np.int8))
    save(directory, "s16_3.npy", np.array([-32768, 2, 32767], dtype=np.int16))
    save(directory, "s32_2x3.npy",
         np.array([[-2147483648, -1, 0], [1, 2, 2147483647]], dtype=np.int32))
    save(directory, "s64_2.npy", np.array([-(2**63), 2**63 - 1], dtype=np.int64))
    save(directory, "u8_3.npy", np.array([0, 1, 255], dtype=np.uint8))
    save(directory, "u16_2.npy", np.array([0, 65535], dtype=np.uint16))
    save(directory, "u32_2.npy", np.array([7, 4294967295], dtype=np.uint32))
    save(directory, "u64_2.npy", np.array([0, 2**64 - 1], dtype=np.uint64))
    save(directory, "f16_4.npy", np.array([1.5, -0.0, np.inf, 65504], dtype=np.float16))
    save(directory, "f32_2x2.npy", np.array([[0.5, -2.0], [np.nan, -np.inf]], dtype=np.float32))
    save(directory, "f64_3.npy", np.array([0.1, -1e300, 5e-324], dtype=np.float64))
    # bf16 under Tessel's convention: descr 'bfloat16', raw bit patterns
    # (1.0 = 0x3f80, -2.5 = 0xc020, 0.0078125 = 0x3c00).
    save_with_header(directory, "bf16_3.npy", "bfloat16", "(3,)",
                     struct.pack("<3H", 0x3F80, 0xC020, 0x3C00))
    save(directory, "f32_scalar.npy", np.array(3.25, dtype=np.float32))
    save(directory, "f32_0x3.npy", np.zeros((0, 3), dtype=np.float32))
    save(directory, "s32_version2.npy", np.array([[1, 2], [3, 4]], dtype=np.int32), version=(2, 0))
    # Files Tessel must reject.
    save(directory, "fortran_order.npy", np.asfortranarray(np.ones((2, 2), dtype=np.float32)))
    save(directory, "big_endian.npy", np.array([1, 2], dtype=">i4"))
    save(directory, "complex64.npy", np.array([1 + 2j], dtype=np.complex64))


if __name__ == "__main__":
    main()
