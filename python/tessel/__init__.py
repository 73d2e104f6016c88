"""Tessel from Python: shard tensor programs over a named device mesh, partition them into
the program every device runs, inspect the result and run it on numpy arrays.

    import tessel
    mesh = tessel.Mesh({"data": 4, "model": 2})
    program = tessel.load("mlp.mlir")
    result = program.partition(mesh, in_shardings=[tessel.P("data", None), None, None])
    print(result.collectives)
    outputs = result.run(x, w1, w2)

Errors in programs, shardings and inputs raise tessel.Error (a ValueError) carrying
Tessel's message with its source location.
"""

from tessel._tessel import Error, __version__
from tessel.mesh import Mesh
from tessel.spec import P, PartitionSpec, UNCONSTRAINED
from tessel.program import Program, load
from tessel.result import Collective, PartitionResult, ValueSharding
from tessel.visualize import Visualization, visualize

__all__ = [
    "Collective",
    "Error",
    "Mesh",
    "P",
    "PartitionResult",
    "PartitionSpec",
    "Program",
    "UNCONSTRAINED",
    "ValueSharding",
    "Visualization",
    "load",
    "visualize",
    "__version__",
]
