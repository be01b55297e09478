//! Element types: the `DType` tag, the sealed `Elem` trait over Rust scalars, and PyTorch's
//! type-promotion rules.

use half::{bf16, f16};

/// The element type of a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DType {
    Bool,
    UInt8,
    Int8,
    Int16,
    Int32,
    Int64,
    Float16,
    BFloat16,
    Float32,
    Float64,
    /// Complex numbers of two float32s. A complex tensor's storage is the real buffer of
    /// interleaved (re, im) pairs (its dtype is `to_real()`); its layout counts complex
    /// elements (see `ops::complex`).
    Complex64,
    Complex128,
}

/// Promotion category: bool < integral < floating < complex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Category {
    Bool,
    Integral,
    Floating,
    Complex,
}

impl DType {
    /// PyTorch's name (`float32`), as in `torch.float32`.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::Float16 => "float16",
            DType::BFloat16 => "bfloat16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }
    /// The legacy tensor-type name used in messages (`FloatTensor`).
    pub fn legacy_name(self) -> &'static str {
        match self {
            DType::Bool => "BoolTensor",
            DType::UInt8 => "ByteTensor",
            DType::Int8 => "CharTensor",
            DType::Int16 => "ShortTensor",
            DType::Int32 => "IntTensor",
            DType::Int64 => "LongTensor",
            DType::Float16 => "HalfTensor",
            DType::BFloat16 => "BFloat16Tensor",
            DType::Float32 => "FloatTensor",
            DType::Float64 => "DoubleTensor",
            DType::Complex64 => "ComplexFloatTensor",
            DType::Complex128 => "ComplexDoubleTensor",
        }
    }
    /// The scalar-type name used in some messages (`Float`, `Long`).
    pub fn scalar_name(self) -> &'static str {
        match self {
            DType::Bool => "Bool",
            DType::UInt8 => "Byte",
            DType::Int8 => "Char",
            DType::Int16 => "Short",
            DType::Int32 => "Int",
            DType::Int64 => "Long",
            DType::Float16 => "Half",
            DType::BFloat16 => "BFloat16",
            DType::Float32 => "Float",
            DType::Float64 => "Double",
            DType::Complex64 => "ComplexFloat",
            DType::Complex128 => "ComplexDouble",
        }
    }
    pub fn from_name(s: &str) -> Option<DType> {
        Some(match s {
            "bool" => DType::Bool,
            "uint8" => DType::UInt8,
            "int8" => DType::Int8,
            "int16" | "short" => DType::Int16,
            "int32" | "int" => DType::Int32,
            "int64" | "long" => DType::Int64,
            "float16" | "half" => DType::Float16,
            "bfloat16" => DType::BFloat16,
            "float32" | "float" => DType::Float32,
            "float64" | "double" => DType::Float64,
            "complex64" | "cfloat" => DType::Complex64,
            "complex128" | "cdouble" => DType::Complex128,
            _ => return None,
        })
    }
    /// The suffix of kernel symbols (`exp_f32`); bool is stored as `u8`.
    pub fn short_name(self) -> &'static str {
        match self {
            DType::Bool => "u8",
            DType::UInt8 => "u8",
            DType::Int8 => "i8",
            DType::Int16 => "i16",
            DType::Int32 => "i32",
            DType::Int64 => "i64",
            DType::Float16 => "f16",
            DType::BFloat16 => "bf16",
            DType::Float32 => "f32",
            DType::Float64 => "f64",
            DType::Complex64 => "c64",
            DType::Complex128 => "c128",
        }
    }
    /// The C type torch names in `full`'s overflow message (`int`, `int64_t`).
    pub fn c_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8_t",
            DType::Int8 => "int8_t",
            DType::Int16 => "int16_t",
            DType::Int32 => "int",
            DType::Int64 => "int64_t",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Float32 => "float",
            DType::Float64 => "double",
            DType::Complex64 => "c10::complex<float>",
            DType::Complex128 => "c10::complex<double>",
        }
    }
    /// The element type as the C++ compiler names it (`typeid(T).name()` demangled), which
    /// some of torch's messages print: `long int`, `c10::Half`.
    pub fn cpp_type_name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "unsigned char",
            DType::Int8 => "signed char",
            DType::Int16 => "short int",
            DType::Int32 => "int",
            DType::Int64 => "long int",
            DType::Float16 => "c10::Half",
            DType::BFloat16 => "c10::BFloat16",
            DType::Float32 => "float",
            DType::Float64 => "double",
            DType::Complex64 => "c10::complex<float>",
            DType::Complex128 => "c10::complex<double>",
        }
    }
    /// The integer range of an integral dtype.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::UInt8 => (0, u8::MAX as i128),
            DType::Int8 => (i8::MIN as i128, i8::MAX as i128),
            DType::Int16 => (i16::MIN as i128, i16::MAX as i128),
            DType::Int32 => (i32::MIN as i128, i32::MAX as i128),
            DType::Int64 => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        })
    }
    /// Whether storing `v` in this dtype overflows (torch's `c10::overflows`, the check of
    /// `full`, `fill_`, `masked_fill`: unsigned types accept negatives down to `-max`, which
    /// wrap; a finite value beyond a floating type's largest overflows, ±inf and NaN do not;
    /// bool never overflows).
    pub fn overflows(self, v: crate::Scalar) -> bool {
        let max = match self {
            DType::Float16 => Some(65504.0),
            DType::BFloat16 => Some(half::bf16::MAX.to_f64()),
            DType::Float32 => Some(f32::MAX as f64),
            _ => None,
        };
        if let Some(max) = max {
            let f = match v {
                crate::Scalar::Bool(_) => return false,
                crate::Scalar::Int(i) => i as f64,
                crate::Scalar::Float(f) => f,
            };
            return f.is_finite() && f.abs() > max;
        }
        self.int_overflows(v)
    }
    /// `overflows` for the integer types only (a floating target takes any value, rounding
    /// to ±inf: what `torch.tensor` does with a number too large for float16).
    pub fn int_overflows(self, v: crate::Scalar) -> bool {
        let Some((lo, hi)) = self.int_range() else { return false };
        let lo = if lo == 0 { -hi } else { lo };
        match v {
            crate::Scalar::Bool(_) => false,
            crate::Scalar::Int(i) => (i as i128) < lo || (i as i128) > hi,
            // an integer type has no NaN (c10: `!has_quiet_NaN && f != f`) and no infinity
            crate::Scalar::Float(f) => f.is_nan() || f < lo as f64 || f > hi as f64,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Float64)
    }
    /// float16 or bfloat16: the reduced-precision types ATen computes in float32
    /// (`opmath_type`) and rounds once.
    pub fn is_half(self) -> bool {
        matches!(self, DType::Float16 | DType::BFloat16)
    }
    pub fn itemsize(self) -> usize {
        match self {
            DType::Bool | DType::UInt8 | DType::Int8 => 1,
            DType::Int16 => 2,
            DType::Int32 => 4,
            DType::Int64 => 8,
            DType::Float16 | DType::BFloat16 => 2,
            DType::Float32 => 4,
            DType::Float64 => 8,
            DType::Complex64 => 8,
            DType::Complex128 => 16,
        }
    }
    pub fn is_complex(self) -> bool {
        matches!(self, DType::Complex64 | DType::Complex128)
    }
    /// The real dtype of a complex one (`complex64` → `float32`); others unchanged.
    pub fn to_real(self) -> DType {
        match self {
            DType::Complex64 => DType::Float32,
            DType::Complex128 => DType::Float64,
            d => d,
        }
    }
    /// The complex dtype of a floating one (`float64` → `complex128`; half types and
    /// float32 → `complex64`); complex dtypes unchanged, `None` for the others.
    pub fn to_complex(self) -> Option<DType> {
        Some(match self {
            DType::Float16 | DType::BFloat16 | DType::Float32 | DType::Complex64 => DType::Complex64,
            DType::Float64 | DType::Complex128 => DType::Complex128,
            _ => return None,
        })
    }
    pub fn category(self) -> Category {
        match self {
            DType::Bool => Category::Bool,
            DType::UInt8 | DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => Category::Integral,
            DType::Complex64 | DType::Complex128 => Category::Complex,
            _ => Category::Floating,
        }
    }
    /// Promotion of two dtypes of the same priority (PyTorch's `promoteTypes`).
    pub fn promote(a: DType, b: DType) -> DType {
        if a == b {
            return a;
        }
        match (a.category(), b.category()) {
            // complex with floating keeps the wider precision (complex64 + float64 is complex128)
            (Category::Complex, Category::Floating) => DType::promote(a.to_real(), b).to_complex().unwrap_or(a),
            (Category::Floating, Category::Complex) => DType::promote(a, b.to_real()).to_complex().unwrap_or(b),
            (x, y) if x != y => {
                if x > y {
                    a
                } else {
                    b
                }
            }
            // uint8 and int8 meet in int16 (neither holds the other's range)
            (Category::Integral, _) if matches!((a, b), (DType::UInt8, DType::Int8) | (DType::Int8, DType::UInt8)) => DType::Int16,
            // float16 and bfloat16 meet in float32 (neither holds the other)
            (Category::Floating, _) if matches!((a, b), (DType::Float16, DType::BFloat16) | (DType::BFloat16, DType::Float16)) => DType::Float32,
            _ => a.max(b),
        }
    }
}

/// How an operand takes part in type promotion (PyTorch's result_type): dimensioned tensors
/// outrank zero-dim tensors, which outrank Python scalars, unless a lower rank brings a
/// higher category.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Scalar,
    ZeroDim,
    Dimensioned,
}

/// PyTorch's `result_type` over operands given as (dtype, priority).
pub fn result_type(parts: &[(DType, Priority)]) -> DType {
    let mut levels: [Option<DType>; 3] = [None; 3];
    for &(d, p) in parts {
        let slot = &mut levels[p as usize];
        *slot = Some(slot.map_or(d, |s| DType::promote(s, d)));
    }
    let mut result: Option<DType> = None;
    for p in [2usize, 1, 0] {
        let Some(d) = levels[p] else { continue };
        result = Some(match result {
            None if p == 0 => scalar_default(d),
            None => d,
            Some(r) if d.category() > r.category() => {
                // a complex operand of lower priority keeps a floating result's precision
                if let (Category::Complex, Some(c)) = (d.category(), r.to_complex()) {
                    c
                } else if p == 0 {
                    scalar_default(d)
                } else {
                    d
                }
            }
            Some(r) => r,
        });
    }
    result.unwrap_or(DType::Float32)
}

fn scalar_default(d: DType) -> DType {
    match d.category() {
        Category::Bool => DType::Bool,
        Category::Integral => DType::Int64,
        Category::Floating => default_float(),
        Category::Complex => default_complex(),
    }
}

static DEFAULT_FLOAT: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// The default floating dtype (`torch.get_default_dtype()`).
pub fn default_float() -> DType {
    match DEFAULT_FLOAT.load(std::sync::atomic::Ordering::Relaxed) {
        1 => DType::Float64,
        2 => DType::Float16,
        3 => DType::BFloat16,
        _ => DType::Float32,
    }
}

/// The default complex dtype (complex64, or complex128 when the default float is float64).
pub fn default_complex() -> DType {
    default_float().to_complex().unwrap_or(DType::Complex64)
}

/// Set the default floating dtype (float32, float64, float16 or bfloat16; others are ignored
/// as float32).
pub fn set_default_float(d: DType) {
    let code = match d {
        DType::Float64 => 1,
        DType::Float16 => 2,
        DType::BFloat16 => 3,
        _ => 0,
    };
    DEFAULT_FLOAT.store(code, std::sync::atomic::Ordering::Relaxed);
}

mod sealed {
    pub trait Sealed {}
}

/// A Rust scalar that can be a tensor element.
pub trait Elem:
    sealed::Sealed + Copy + Send + Sync + 'static + PartialOrd + Default + std::fmt::Debug
{
    const DTYPE: DType;
    fn to_f64(self) -> f64;
    fn from_f64(v: f64) -> Self;
    fn to_i64(self) -> i64 {
        self.to_f64() as i64
    }
    fn from_i64(v: i64) -> Self {
        Self::from_f64(v as f64)
    }
}

macro_rules! elem {
    ($t:ty, $d:ident, $to:expr, $from:expr, $toi:expr, $fromi:expr) => {
        impl sealed::Sealed for $t {}
        impl Elem for $t {
            const DTYPE: DType = DType::$d;
            #[inline(always)]
            fn to_f64(self) -> f64 {
                $to(self)
            }
            #[inline(always)]
            fn from_f64(v: f64) -> Self {
                $from(v)
            }
            #[inline(always)]
            fn to_i64(self) -> i64 {
                $toi(self)
            }
            #[inline(always)]
            fn from_i64(v: i64) -> Self {
                $fromi(v)
            }
        }
    };
}
elem!(bool, Bool, |v: bool| v as u8 as f64, |v: f64| v != 0.0, |v: bool| v as i64, |v: i64| v != 0);
elem!(u8, UInt8, |v: u8| v as f64, |v: f64| v as i64 as u8, |v: u8| v as i64, |v: i64| v as u8);
elem!(i8, Int8, |v: i8| v as f64, |v: f64| v as i64 as i8, |v: i8| v as i64, |v: i64| v as i8);
elem!(i16, Int16, |v: i16| v as f64, |v: f64| v as i64 as i16, |v: i16| v as i64, |v: i64| v as i16);
elem!(i32, Int32, |v: i32| v as f64, |v: f64| v as i64 as i32, |v: i32| v as i64, |v: i64| v as i32);
elem!(i64, Int64, |v: i64| v as f64, |v: f64| v as i64, |v: i64| v, |v: i64| v);
// c10's Half and BFloat16 are built from a float: a double or an integer is rounded to float
// first, then to the half type (two roundings, as PyTorch; `half`'s own `from_f64` rounds
// once, and its bfloat16 one drops the low bits of a float's mantissa before rounding)
elem!(f16, Float16, |v: f16| v.to_f64(), |v: f64| f16::from_f32(v as f32), |v: f16| v.to_f64() as i64, |v: i64| f16::from_f32(v as f32));
elem!(bf16, BFloat16, |v: bf16| v.to_f64(), |v: f64| bf16::from_f32(v as f32), |v: bf16| v.to_f64() as i64, |v: i64| bf16::from_f32(v as f32));
elem!(f32, Float32, |v: f32| v as f64, |v: f64| v as f32, |v: f32| v as i64, |v: i64| v as f32);
elem!(f64, Float64, |v: f64| v, |v: f64| v, |v: f64| v as i64, |v: i64| v as f64);

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn promotion_follows_torch() {
        use DType::*;
        use Priority::*;
        assert_eq!(result_type(&[(Int64, Dimensioned), (Float32, Dimensioned)]), Float32);
        assert_eq!(result_type(&[(Int32, Dimensioned), (Int64, Scalar)]), Int32);
        assert_eq!(result_type(&[(Int64, Dimensioned), (Float64, Scalar)]), Float32);
        assert_eq!(result_type(&[(Int64, Dimensioned), (Float64, ZeroDim)]), Float64);
        assert_eq!(result_type(&[(Float32, Dimensioned), (Float64, ZeroDim)]), Float32);
        assert_eq!(result_type(&[(Bool, Dimensioned), (Bool, Dimensioned)]), Bool);
        assert_eq!(result_type(&[(UInt8, Dimensioned), (Int8, Dimensioned)]), Int16);
        assert_eq!(result_type(&[(UInt8, Dimensioned), (Int64, Scalar)]), UInt8);
        assert_eq!(result_type(&[(UInt8, Dimensioned), (Int32, Dimensioned)]), Int32);
        assert_eq!(DType::promote(Complex64, Float64), Complex128);
        assert_eq!(DType::promote(Float16, Complex64), Complex64);
        assert_eq!(result_type(&[(Complex64, Dimensioned), (Float64, ZeroDim)]), Complex64);
        assert_eq!(result_type(&[(Float64, Dimensioned), (Complex128, Scalar)]), Complex128);
        assert_eq!(result_type(&[(Float32, Dimensioned), (Complex128, Scalar)]), Complex64);
        assert_eq!(result_type(&[(Int64, Dimensioned), (Complex128, Scalar)]), Complex64);
    }
}
