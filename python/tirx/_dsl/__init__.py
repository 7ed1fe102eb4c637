"""The tracing DSL behind `tirx.script.tirx` (T): running a @T.function body
records TirX IR, with the user's file:line on every operation, so compiler
diagnostics point at the Python source.

By concern: _errors (errors and source positions), _builder (the IR being
recorded), _sizes (size variables and grid expressions), _dtypes (element
types, constants), _tensors (tensor types and values), _scalars (scalar
values), _math (math functions). This module re-exports what the rest of
tirx uses."""
from ._errors import (CompileError, DSLError, _error, _user_position, check_shape, is_int,  # noqa: F401
                      location_text, mlir_string)
from ._builder import Builder, builder, current_builder  # noqa: F401
from ._sizes import GridExpr, SizeVar, ceildiv, check_align, divisor_of  # noqa: F401
from ._dtypes import DTYPES, Constant, DType, as_dtype  # noqa: F401
from ._tensors import Tensor, TensorType, TensorValue, _as_layout  # noqa: F401
from ._scalars import _BOOL, ScalarValue, load_element, to_index, to_index_constant  # noqa: F401
from ._math import if_then_else, math_functions  # noqa: F401
