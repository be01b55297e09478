//! CPU storage: one typed buffer per dtype.

use crate::dtype::{DType, Elem};
use half::f16;

/// A typed element buffer: owned by us, or borrowed from outside (a NumPy array) with an
/// owner object that keeps the memory alive.
pub enum Buf<T> {
    Owned(Vec<T>),
    External { ptr: *mut T, len: usize, _owner: Box<dyn std::any::Any + Send + Sync> },
}

// SAFETY: an External buffer is only created by `Buf::external`, whose contract makes the
// memory valid for the owner's lifetime and accessible from any thread; all access goes
// through the storage RwLock.
unsafe impl<T: Send> Send for Buf<T> {}
// SAFETY: see `Send` above.
unsafe impl<T: Sync> Sync for Buf<T> {}

impl<T> Buf<T> {
    /// Wrap memory owned by `owner`.
    ///
    /// # Safety
    /// `ptr` must point to `len` initialised, properly aligned `T`s that stay valid and are
    /// not freed while `owner` lives, and nothing else may create a Rust reference to them.
    pub unsafe fn external(ptr: *mut T, len: usize, owner: Box<dyn std::any::Any + Send + Sync>) -> Self {
        Buf::External { ptr, len, _owner: owner }
    }
}

impl<T> std::ops::Deref for Buf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Buf::Owned(v) => v,
            // SAFETY: guaranteed valid for `len` elements by `Buf::external`'s contract.
            Buf::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts(*ptr, *len) },
        }
    }
}

impl<T> std::ops::DerefMut for Buf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Buf::Owned(v) => v,
            // SAFETY: as in Deref; `&mut self` proves exclusive access through this buffer.
            Buf::External { ptr, len, .. } => unsafe { std::slice::from_raw_parts_mut(*ptr, *len) },
        }
    }
}

/// The elements of one storage, typed.
pub enum CpuStorage {
    Bool(Buf<bool>),
    U8(Buf<u8>),
    I8(Buf<i8>),
    I16(Buf<i16>),
    I32(Buf<i32>),
    I64(Buf<i64>),
    F16(Buf<f16>),
    BF16(Buf<half::bf16>),
    F32(Buf<f32>),
    F64(Buf<f64>),
}

/// Dispatch over every dtype: `with_buf!(storage, v => expr using v: &Buf<T>)`.
#[macro_export]
macro_rules! with_buf {
    ($s:expr, $v:ident => $body:expr) => {
        match $s {
            $crate::storage::CpuStorage::Bool($v) => $body,
            $crate::storage::CpuStorage::U8($v) => $body,
            $crate::storage::CpuStorage::I8($v) => $body,
            $crate::storage::CpuStorage::I16($v) => $body,
            $crate::storage::CpuStorage::I32($v) => $body,
            $crate::storage::CpuStorage::I64($v) => $body,
            $crate::storage::CpuStorage::F16($v) => $body,
            $crate::storage::CpuStorage::BF16($v) => $body,
            $crate::storage::CpuStorage::F32($v) => $body,
            $crate::storage::CpuStorage::F64($v) => $body,
        }
    };
}

/// Typed access to a `CpuStorage` variant.
pub trait StorageElem: Elem + crate::cpu::alloc::Cached {
    fn wrap(v: Vec<Self>) -> CpuStorage;
    fn get(s: &CpuStorage) -> &[Self];
    fn get_mut(s: &mut CpuStorage) -> &mut [Self];
}

macro_rules! storage_elem {
    ($t:ty, $var:ident) => {
        impl StorageElem for $t {
            fn wrap(v: Vec<Self>) -> CpuStorage {
                CpuStorage::$var(Buf::Owned(v))
            }
            fn get(s: &CpuStorage) -> &[Self] {
                match s {
                    CpuStorage::$var(b) => b,
                    _ => panic!("invariant: storage dtype checked by caller"),
                }
            }
            fn get_mut(s: &mut CpuStorage) -> &mut [Self] {
                match s {
                    CpuStorage::$var(b) => b,
                    _ => panic!("invariant: storage dtype checked by caller"),
                }
            }
        }
    };
}
storage_elem!(bool, Bool);
storage_elem!(u8, U8);
storage_elem!(i8, I8);
storage_elem!(i16, I16);
storage_elem!(i32, I32);
storage_elem!(i64, I64);
storage_elem!(f16, F16);
storage_elem!(half::bf16, BF16);
storage_elem!(f32, F32);
storage_elem!(f64, F64);

impl CpuStorage {
    pub fn dtype(&self) -> DType {
        match self {
            CpuStorage::Bool(_) => DType::Bool,
            CpuStorage::U8(_) => DType::UInt8,
            CpuStorage::I8(_) => DType::Int8,
            CpuStorage::I16(_) => DType::Int16,
            CpuStorage::I32(_) => DType::Int32,
            CpuStorage::I64(_) => DType::Int64,
            CpuStorage::F16(_) => DType::Float16,
            CpuStorage::BF16(_) => DType::BFloat16,
            CpuStorage::F32(_) => DType::Float32,
            CpuStorage::F64(_) => DType::Float64,
        }
    }
    pub fn len(&self) -> usize {
        with_buf!(self, b => b.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A zero-filled buffer of `n` elements, or the allocator's error.
    pub fn zeros(dtype: DType, n: usize) -> crate::Result<CpuStorage> {
        use crate::cpu::alloc::try_zeroed;
        Ok(match dtype {
            DType::Bool => bool::wrap(try_zeroed(n)?),
            DType::UInt8 => u8::wrap(try_zeroed(n)?),
            DType::Int8 => i8::wrap(try_zeroed(n)?),
            DType::Int16 => i16::wrap(try_zeroed(n)?),
            DType::Int32 => i32::wrap(try_zeroed(n)?),
            DType::Int64 => i64::wrap(try_zeroed(n)?),
            DType::Float16 => f16::wrap(try_zeroed(n)?),
            DType::BFloat16 => half::bf16::wrap(try_zeroed(n)?),
            DType::Float32 => f32::wrap(try_zeroed(n)?),
            DType::Float64 => f64::wrap(try_zeroed(n)?),
            DType::Complex64 | DType::Complex128 => return Err(crate::cpu::complex_storage(dtype)),
        })
    }
    /// A buffer of `n` elements with unspecified contents (a recycled buffer where the cache
    /// has one: no zeroing pass, no fresh pages to fault in), for a caller that writes every
    /// element; or the allocator's error.
    pub fn scratch(dtype: DType, n: usize) -> crate::Result<CpuStorage> {
        use crate::cpu::alloc::take;
        Ok(match dtype {
            DType::Bool => bool::wrap(take(n)?),
            DType::UInt8 => u8::wrap(take(n)?),
            DType::Int8 => i8::wrap(take(n)?),
            DType::Int16 => i16::wrap(take(n)?),
            DType::Int32 => i32::wrap(take(n)?),
            DType::Int64 => i64::wrap(take(n)?),
            DType::Float16 => f16::wrap(take(n)?),
            DType::BFloat16 => half::bf16::wrap(take(n)?),
            DType::Float32 => f32::wrap(take(n)?),
            DType::Float64 => f64::wrap(take(n)?),
            DType::Complex64 | DType::Complex128 => return Err(crate::cpu::complex_storage(dtype)),
        })
    }
    /// A buffer of `n` copies of `v` (given as f64, or exactly as i64 for integers), or the
    /// allocator's error.
    pub fn filled(dtype: DType, n: usize, v: crate::Scalar) -> crate::Result<CpuStorage> {
        use crate::cpu::alloc::filled as try_filled;
        Ok(match dtype {
            DType::Bool => bool::wrap(try_filled(n, v.as_f64() != 0.0)?),
            DType::UInt8 => u8::wrap(try_filled(n, v.as_i64() as u8)?),
            DType::Int8 => i8::wrap(try_filled(n, v.as_i64() as i8)?),
            DType::Int16 => i16::wrap(try_filled(n, v.as_i64() as i16)?),
            DType::Int32 => i32::wrap(try_filled(n, v.as_i64() as i32)?),
            DType::Int64 => i64::wrap(try_filled(n, v.as_i64())?),
            DType::Float16 => f16::wrap(try_filled(n, f16::from_f32(v.as_f64() as f32))?),
            DType::BFloat16 => half::bf16::wrap(try_filled(n, half::bf16::from_f32(v.as_f64() as f32))?),
            DType::Float32 => f32::wrap(try_filled(n, v.as_f64() as f32)?),
            DType::Float64 => f64::wrap(try_filled(n, v.as_f64())?),
            DType::Complex64 | DType::Complex128 => return Err(crate::cpu::complex_storage(dtype)),
        })
    }
    /// Sets elements `r` to `v` (converted as `filled` converts).
    pub fn fill_range(&mut self, r: std::ops::Range<usize>, v: crate::Scalar) {
        match self.dtype() {
            DType::Bool => bool::get_mut(self)[r].fill(v.as_f64() != 0.0),
            DType::UInt8 => u8::get_mut(self)[r].fill(v.as_i64() as u8),
            DType::Int8 => i8::get_mut(self)[r].fill(v.as_i64() as i8),
            DType::Int16 => i16::get_mut(self)[r].fill(v.as_i64() as i16),
            DType::Int32 => i32::get_mut(self)[r].fill(v.as_i64() as i32),
            DType::Int64 => i64::get_mut(self)[r].fill(v.as_i64()),
            DType::Float16 => f16::get_mut(self)[r].fill(f16::from_f32(v.as_f64() as f32)),
            DType::BFloat16 => half::bf16::get_mut(self)[r].fill(half::bf16::from_f32(v.as_f64() as f32)),
            DType::Float32 => f32::get_mut(self)[r].fill(v.as_f64() as f32),
            DType::Float64 => f64::get_mut(self)[r].fill(v.as_f64()),
            DType::Complex64 | DType::Complex128 => unreachable!("invariant: complex tensors keep real storage"),
        }
    }
    /// Raw address of the first element (for `data_ptr`).
    pub fn as_ptr(&self) -> usize {
        with_buf!(self, b => b.as_ptr() as usize)
    }
    /// An owned copy of the whole buffer.
    pub fn clone_buffer(&self) -> CpuStorage {
        match self {
            CpuStorage::Bool(b) => bool::wrap(b.to_vec()),
            CpuStorage::U8(b) => u8::wrap(b.to_vec()),
            CpuStorage::I8(b) => i8::wrap(b.to_vec()),
            CpuStorage::I16(b) => i16::wrap(b.to_vec()),
            CpuStorage::I32(b) => i32::wrap(b.to_vec()),
            CpuStorage::I64(b) => i64::wrap(b.to_vec()),
            CpuStorage::F16(b) => f16::wrap(b.to_vec()),
            CpuStorage::BF16(b) => half::bf16::wrap(b.to_vec()),
            CpuStorage::F32(b) => f32::wrap(b.to_vec()),
            CpuStorage::F64(b) => f64::wrap(b.to_vec()),
        }
    }
}

impl Drop for CpuStorage {
    fn drop(&mut self) {
        use crate::cpu::alloc::Cached;
        fn give<T: Cached>(b: &mut Buf<T>) {
            if let Buf::Owned(v) = b {
                T::cache().give(std::mem::take(v));
            }
        }
        match self {
            CpuStorage::Bool(b) => give(b),
            CpuStorage::U8(b) => give(b),
            CpuStorage::I8(b) => give(b),
            CpuStorage::I16(b) => give(b),
            CpuStorage::I32(b) => give(b),
            CpuStorage::I64(b) => give(b),
            CpuStorage::F16(b) => give(b),
            CpuStorage::BF16(b) => give(b),
            CpuStorage::F32(b) => give(b),
            CpuStorage::F64(b) => give(b),
        }
    }
}
