"""tessel.hlo_collectives: the collectives of compiled HLO text, counted and sized by hand
(the JAX bridge's comparison reads XLA's side this way; no JAX needed)."""

import unittest

from tessel.hlo_collectives import count_collectives, shape_bytes

COMPILED = """
HloModule jit_f, entry_computation_layout={(f32[4,64]{1,0})->f32[4,64]{1,0}}

%add.clone (x: f32[], y: f32[]) -> f32[] {
  ROOT %add = f32[] add(f32[] %x, f32[] %y)
}

ENTRY %main (p: f32[4,64]) -> f32[4,64] {
  %p = f32[4,64]{1,0} parameter(0)
  %all-reduce = f32[4,64]{1,0} all-reduce(%p), channel_id=1, replica_groups={{0,1}}, to_apply=%add.clone
  %all-gather = bf16[8,64]{1,0} all-gather(%p), channel_id=2, dimensions={0}
  %ags = (f32[4,64]{1,0}, f32[8,64]{1,0}) all-gather-start(%p), dimensions={0}
  %agd = f32[8,64]{1,0} all-gather-done(%ags)
  %cp = s32[3]{0} collective-permute(%x), source_target_pairs={{0,1},{1,0}}
  %t = (f32[2]{0}, f32[2]{0}) all-to-all(%a, %b), replica_groups={{0,1}}
  ROOT %r = f32[4,64]{1,0} copy(%all-reduce)
}
"""


class HloCollectivesTest(unittest.TestCase):

    def test_shape_bytes(self):
        self.assertEqual(shape_bytes("f32[4,64]{1,0}"), 1024)
        self.assertEqual(shape_bytes("(bf16[3], pred[2,2])"), 6 + 4)
        self.assertEqual(shape_bytes("f32[]"), 4)

    def test_counts_each_kind_once_per_instruction(self):
        counts = count_collectives(COMPILED)
        self.assertEqual(counts["all_reduce"], (1, 1024))
        # A synchronous bf16[8,64] (1024 bytes) and an asynchronous pair counted at its
        # done, f32[8,64] (2048 bytes).
        self.assertEqual(counts["all_gather"], (2, 1024 + 2048))
        self.assertEqual(counts["collective_permute"], (1, 12))
        self.assertEqual(counts["all_to_all"], (1, 16))
        self.assertNotIn("reduce_scatter", counts)

    def test_no_collectives(self):
        self.assertEqual(count_collectives("ENTRY %m { ROOT %p = f32[2] parameter(0) }"), {})


if __name__ == "__main__":
    unittest.main()
