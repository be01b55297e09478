//! The typed operations of the backend contract. Each carries the name of its kernel
//! (`UnaryOp::Exp` on float32 is `exp_f32` in `kernels/unary.cu`).

use crate::dtype::DType;

/// A 2-d pooling window: kernel, stride, padding (each side) and dilation, (h, w) each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pool2d {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub pad: [usize; 2],
    pub dilation: [usize; 2],
}

/// Pooling windows over the last three dims of contiguous (planes, d, h, w) data (2-d pooling
/// is depth 1): along dim `a`, output `i`'s window has `kernel[a]` taps `dilation[a]` apart from
/// `starts[a][i]` (from `starts[a][p * out[a] + i]` for plane `p` when `per_plane`: fractional
/// pooling draws each plane's own steps); taps outside the input are skipped.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolWindows {
    pub size: [usize; 3],
    pub out: [usize; 3],
    pub kernel: [usize; 3],
    pub dilation: [usize; 3],
    pub starts: [Vec<i64>; 3],
    pub per_plane: bool,
}

impl PoolWindows {
    /// The windows of a regular pooling: output `i` along dim `a` starts at `i * stride[a] -
    /// pad[a]`, the same for every plane.
    pub fn regular(size: [usize; 3], out: [usize; 3], kernel: [usize; 3], stride: [usize; 3], pad: [usize; 3], dilation: [usize; 3]) -> PoolWindows {
        let starts = std::array::from_fn(|a| (0..out[a]).map(|i| (i * stride[a]) as i64 - pad[a] as i64).collect());
        PoolWindows { size, out, kernel, dilation, starts, per_plane: false }
    }
    /// Elements of one input plane.
    pub fn plane(&self) -> usize {
        self.size.iter().product()
    }
    /// Output positions of one plane.
    pub fn positions(&self) -> usize {
        self.out.iter().product()
    }
    /// The in-plane index of output `o`'s window start in plane `p` (0 when it lies outside).
    pub fn start_index(&self, p: usize, o: [usize; 3]) -> usize {
        let s: [i64; 3] = std::array::from_fn(|a| if self.per_plane { self.starts[a][p * self.out[a] + o[a]] } else { self.starts[a][o[a]] });
        if (0..3).all(|a| s[a] >= 0 && (s[a] as usize) < self.size[a]) {
            (s[0] as usize * self.size[1] + s[1] as usize) * self.size[2] + s[2] as usize
        } else {
            0
        }
    }
    /// The taps of output `i` along dim `a` of plane `p` that fall inside the input, as
    /// (first input index, count); the stride between taps is `dilation[a]`.
    #[inline]
    pub fn taps(&self, a: usize, p: usize, i: usize) -> (usize, usize) {
        let s = if self.per_plane { self.starts[a][p * self.out[a] + i] } else { self.starts[a][i] };
        let (d, k, n) = (self.dilation[a] as i64, self.kernel[a] as i64, self.size[a] as i64);
        // the first tap at or after 0, the last before n
        let skip = if s < 0 { (-s + d - 1) / d } else { 0 };
        let first = s + skip * d;
        if skip >= k || first >= n {
            return (0, 0);
        }
        let last = (s + (k - 1) * d).min(n - 1);
        (first as usize, ((last - first) / d + 1) as usize)
    }
}

/// Grid sampling's interpolation (ATen's `GridSamplerInterpolation`, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridMode {
    Bilinear,
    Nearest,
    Bicubic,
}

/// Where grid sampling reads outside the input (ATen's `GridSamplerPadding`, in its order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPadding {
    Zeros,
    Border,
    Reflection,
}

/// Which of grid sampling's passes a kernel call computes (see `cpu::grid`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GridPass {
    Forward,
    Backward,
    DoubleBackward,
}

/// A grid sampling: mode, padding, `align_corners`, the input's shape (N, C, *spatial) and
/// the output's spatial shape.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSampler {
    pub mode: GridMode,
    pub padding: GridPadding,
    pub align_corners: bool,
    pub input: Vec<usize>,
    pub out: Vec<usize>,
}

/// A convolution's sliding window over a (n, c, h, w) image: kernel, stride and dilation
/// (h, w), padding (top, bottom, left, right; negative crops) and the number of window
/// positions (oh, ow).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConvWindow {
    pub kernel: [usize; 2],
    pub stride: [usize; 2],
    pub dilation: [usize; 2],
    pub pad: [i64; 4],
    pub out: [usize; 2],
}

/// A (not transposed) 2-d convolution: input (n, c, h, w), weight (oc, c/groups, kh, kw),
/// output (n, oc, oh, ow) with (oh, ow) = `win.out`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Conv2d {
    pub nchw: [usize; 4],
    pub oc: usize,
    pub groups: usize,
    pub win: ConvWindow,
}

/// Scaled dot-product attention over (b, h, l, e) queries and (b, hk, s, e) keys and values,
/// `hk` dividing `h` (each key head serves `h / hk` consecutive query heads): `softmax(q kᵀ ·
/// scale + mask) v`, with `causal` keeping key `j <= i` for query `i`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Attention {
    pub b: usize,
    pub h: usize,
    pub hk: usize,
    pub l: usize,
    pub s: usize,
    pub e: usize,
    pub scale: f64,
    pub causal: bool,
}

/// Elementwise unary operations.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum UnaryOp {
    Neg,
    Exp,
    Log,
    Sqrt,
    Rsqrt,
    Sin,
    Cos,
    Tan,
    Tanh,
    Sigmoid,
    Relu,
    Abs,
    Sign,
    Reciprocal,
    Floor,
    Ceil,
    Trunc,
    /// Round half to even.
    Round,
    Log1p,
    Expm1,
    Log2,
    Log10,
    Atan,
    Asin,
    Acos,
    Sinh,
    Cosh,
    Asinh,
    Acosh,
    Atanh,
    /// `ln |Γ(x)|`.
    Lgamma,
    /// `ψ(x) = d/dx ln Γ(x)`.
    Digamma,
    /// `ψ'(x)` (`polygamma(1, x)`: digamma's derivative).
    Trigamma,
    /// The error function.
    Erf,
    /// The inverse error function.
    Erfinv,
    /// The complementary error function `1 - erf(x)` (accurate where erf is near 1).
    Erfc,
    /// `x Φ(x)` (GELU), as ATen's float kernel: erf by Abramowitz & Stegun 7.1.26.
    Gelu,
    /// GELU's tanh approximation `x/2 (1 + tanh(√(2/π) (x + 0.044715 x³)))`.
    GeluTanh,
    /// `x σ(x) = x / (1 + e^{-x})` (SiLU / swish), one division as ATen's kernel.
    Silu,
    /// The normalised sinc `sin(πx) / (πx)` (1 at 0).
    Sinc,
    /// `2 ** x`.
    Exp2,
    /// `x * x`.
    Square,
    /// `x ** p` for a float exponent.
    PowScalar(f64),
    /// `x ** p` for integers (wrapping), p >= 0.
    PowInt(u32),
    /// `x > 0 ? x : x * slope` (leaky ReLU; NaN passes through).
    LeakyRelu(f64),
    /// `x > 0 ? 1 : slope`: leaky ReLU's derivative, the factor its backward multiplies by.
    LeakyReluSlope(f64),
    /// `x * min(max(x + 3, 0), 6) / 6` in ATen's order of operations (NaN passes through).
    Hardswish,
    /// `min(max(x + 3, 0), 6) / 6` (ATen's order: `x / 6 + 1/2` rounds differently).
    Hardsigmoid,
    /// `x β > threshold ? x : log1p(exp(x β)) / β` (softplus(β, threshold)).
    Softplus(f64, f64),
    /// `x > 0 ? x · pos : expm1(x · input_scale) · neg` (ELU, SELU, CELU: `(neg, pos,
    /// input_scale)`).
    Elu(f64, f64, f64),
    /// `clamp(x, lo, hi)` (NaN passes through).
    Clamp(Option<f64>, Option<f64>),
    /// `1` where `lo <= x <= hi`, else `0` (clamp's gradient mask), in x's dtype.
    ClampMask(Option<f64>, Option<f64>),
    /// `!x` on bool.
    LogicalNot,
    /// Float → bool tests.
    IsNan,
    IsInf,
    IsFinite,
}

/// What an op accepts and produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryKind {
    /// Floating inputs only, same dtype out.
    Float,
    /// Every dtype but bool, same dtype out.
    Numeric,
    /// Bool in, bool out.
    Bool,
    /// Floating in, bool out.
    FloatTest,
}

impl UnaryOp {
    /// The kernel's base name (`exp`): the symbol is `<name>_<dtype>`.
    pub fn name(self) -> &'static str {
        use UnaryOp::*;
        match self {
            Neg => "neg",
            Exp => "exp",
            Log => "log",
            Sqrt => "sqrt",
            Rsqrt => "rsqrt",
            Sin => "sin",
            Cos => "cos",
            Tan => "tan",
            Tanh => "tanh",
            Sigmoid => "sigmoid",
            Relu => "relu",
            Abs => "abs",
            Sign => "sign",
            Reciprocal => "reciprocal",
            Floor => "floor",
            Ceil => "ceil",
            Trunc => "trunc",
            Round => "round",
            Log1p => "log1p",
            Expm1 => "expm1",
            Log2 => "log2",
            Log10 => "log10",
            Atan => "atan",
            Asin => "asin",
            Acos => "acos",
            Sinh => "sinh",
            Cosh => "cosh",
            Asinh => "asinh",
            Acosh => "acosh",
            Atanh => "atanh",
            Lgamma => "lgamma",
            Digamma => "digamma",
            Trigamma => "trigamma",
            Erf => "erf",
            Erfinv => "erfinv",
            Erfc => "erfc",
            Gelu => "gelu",
            GeluTanh => "gelu_tanh",
            Silu => "silu",
            Sinc => "sinc",
            Exp2 => "exp2",
            Square => "square",
            PowScalar(_) => "pow_scalar",
            PowInt(_) => "pow_int",
            LeakyRelu(_) => "leaky_relu",
            LeakyReluSlope(_) => "leaky_relu_slope",
            Hardswish => "hardswish",
            Hardsigmoid => "hardsigmoid",
            Softplus(..) => "softplus",
            Elu(..) => "elu",
            Clamp(..) => "clamp",
            ClampMask(..) => "clamp_mask",
            LogicalNot => "logical_not",
            IsNan => "isnan",
            IsInf => "isinf",
            IsFinite => "isfinite",
        }
    }
    /// The kernel symbol for `dtype` (`exp_f32`).
    pub fn kernel(self, dtype: DType) -> String {
        format!("{}_{}", self.name(), dtype.short_name())
    }
    pub fn kind(self) -> UnaryKind {
        use UnaryOp::*;
        match self {
            Neg | Relu | Abs | Sign | PowInt(_) | Clamp(..) | ClampMask(..) => UnaryKind::Numeric,
            LogicalNot => UnaryKind::Bool,
            IsNan | IsInf | IsFinite => UnaryKind::FloatTest,
            _ => UnaryKind::Float,
        }
    }
    /// The dtype of the result for an input of `dtype`.
    pub fn out_dtype(self, dtype: DType) -> DType {
        match self.kind() {
            UnaryKind::FloatTest | UnaryKind::Bool => DType::Bool,
            _ => dtype,
        }
    }
}

/// Elementwise binary operations (operands already promoted to one dtype).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    FloorDiv,
    /// Python's `%`: the sign of the divisor (`torch.remainder`).
    Rem,
    /// C's `fmod`: the sign of the dividend (`torch.fmod`).
    Fmod,
    /// `atan2(a, b)` (float only).
    Atan2,
    /// `sqrt(a² + b²)` without overflow (float only).
    Hypot,
    /// `log(exp(a) + exp(b))` (float only).
    LogAddExp,
    /// `log2(2^a + 2^b)` (float only).
    LogAddExp2,
    /// `|a|` with the sign of `b` (float only).
    Copysign,
    /// The next float after `a` towards `b` (float only).
    NextAfter,
    /// `0` for `a < 0`, `1` for `a > 0`, `b` where `a == 0` (NaN stays NaN).
    Heaviside,
    Maximum,
    Minimum,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Xor,
    /// `b > 0 ? a : 0` (relu's backward: a = gradient, b = saved result).
    ReluBackward,
    /// `(a - b)²` (mse_loss's elementwise term, rounded as ATen's: the difference, then its
    /// square).
    SquaredDiff,
    /// `a * (1 - b²)` (tanh's backward: b = saved result).
    TanhBackward,
    /// `a * b * (1 - b)` (sigmoid's backward: b = saved result).
    SigmoidBackward,
    /// `gelu_backward(g, x) = g gelu'(x)` (exact GELU).
    GeluBackward,
    /// `g gelu'(x)` of the tanh approximation.
    GeluTanhBackward,
    /// `silu_backward(g, x) = g σ(x) (1 + x (1 - σ(x)))`.
    SiluBackward,
}

impl BinaryOp {
    pub fn name(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            Div => "div",
            Pow => "pow",
            FloorDiv => "floor_divide",
            Rem => "remainder",
            Fmod => "fmod",
            Atan2 => "atan2",
            Hypot => "hypot",
            LogAddExp => "logaddexp",
            LogAddExp2 => "logaddexp2",
            Copysign => "copysign",
            NextAfter => "nextafter",
            Heaviside => "heaviside",
            Maximum => "maximum",
            Minimum => "minimum",
            Eq => "eq",
            Ne => "ne",
            Lt => "lt",
            Le => "le",
            Gt => "gt",
            Ge => "ge",
            And => "bitwise_and",
            Or => "bitwise_or",
            Xor => "bitwise_xor",
            ReluBackward => "relu_backward",
            SquaredDiff => "mse_loss",
            TanhBackward => "tanh_backward",
            SigmoidBackward => "sigmoid_backward",
            GeluBackward => "gelu_backward",
            GeluTanhBackward => "gelu_tanh_backward",
            SiluBackward => "silu_backward",
        }
    }
    /// The kernel symbol for `dtype` (`add_f32`).
    pub fn kernel(self, dtype: DType) -> String {
        format!("{}_{}", self.name(), dtype.short_name())
    }
    pub fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }
    /// The dtype of `a op b` for operands of `dtype`.
    pub fn out_dtype(self, dtype: DType) -> DType {
        if self.is_comparison() { DType::Bool } else { dtype }
    }
}

/// Reductions of contiguous rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReduceOp {
    /// Sum (floats accumulate in f64 pairwise lanes; integers wrap in i64).
    Sum,
    Prod,
    /// Max/min with NaN propagation (the first NaN wins).
    Max,
    Min,
    /// Bool rows.
    All,
    Any,
    /// `ln Σ exp` of float rows, shifted by the row's finite maximum (PyTorch's logsumexp).
    LogSumExp,
    /// `sqrt(Σ x²)` of float rows (the 2-norm over a contiguous last dim, PyTorch's order).
    NormTwo,
}

impl ReduceOp {
    pub fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
            ReduceOp::All => "all",
            ReduceOp::Any => "any",
            ReduceOp::LogSumExp => "logsumexp",
            ReduceOp::NormTwo => "norm",
        }
    }
    pub fn kernel(self, dtype: DType) -> String {
        format!("{}_rows_{}", self.name(), dtype.short_name())
    }
}

/// Row-wise scans (contiguous rows, output of the same shape).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScanOp {
    /// Inclusive cumulative sum.
    Cumsum,
    /// Inclusive cumulative product.
    Cumprod,
    /// The product of every other element of the row (prod's gradient with zeros).
    ProdOthers,
    /// softmax of each row.
    Softmax,
    /// log_softmax of each row.
    LogSoftmax,
}

impl ScanOp {
    pub fn name(self) -> &'static str {
        match self {
            ScanOp::Cumsum => "cumsum",
            ScanOp::Cumprod => "cumprod",
            ScanOp::ProdOthers => "prod_others",
            ScanOp::Softmax => "softmax",
            ScanOp::LogSoftmax => "log_softmax",
        }
    }
    pub fn kernel(self, dtype: DType) -> String {
        format!("{}_{}", self.name(), dtype.short_name())
    }
}
