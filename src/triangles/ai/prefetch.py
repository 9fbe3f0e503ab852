"""A hint to the processor to start loading a table row that will be read soon.

The exact searches spend much of their time waiting for rows of tables far larger
than the caches (the transposition table, the region states' table).  Where a
search knows several rows it is about to read, asking for all of them first lets
the loads overlap instead of waiting for each in turn.  This is LLVM's
``llvm.prefetch`` intrinsic; it changes no value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__ = ["prefetch_row"]


def _typed(typingctx: Any, table: Any, row: Any) -> Any:
    """The typing and code of :func:`prefetch_row`: for a 2-D array and an integer only."""
    if not (isinstance(table, types.Array) and table.ndim == 2 and isinstance(row, types.Integer)):
        return None
    sig = types.void(table, row)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aty, rty = signature.args
        arr = context.make_array(aty)(context, builder, args[0])
        r = context.cast(builder, args[1], rty, types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aty, arr, [r, context.get_constant(types.intp, 0)])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        # read, keep in all cache levels, data
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


if TYPE_CHECKING:

    def prefetch_row(table: np.ndarray, row: int) -> None:
        """Prefetch row ``row`` of the 2-D array ``table`` for reading (no bounds check: a hint)."""

else:
    prefetch_row = intrinsic(_typed)
