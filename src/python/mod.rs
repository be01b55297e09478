//! PyO3 bindings: the `ferrograd._C` module. The only place that imports pyo3.

mod convert;
mod dlpack;
mod errors;
mod function;
mod functions;
mod hooks;
mod linalg;
mod nn;
mod node;
mod optim;
mod random;
mod tensor;
mod tensor_ops;


use pyo3::prelude::*;

/// The native module `ferrograd._C`.
#[pymodule]
#[pyo3(name = "_C")]
fn init_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    crate::runtime::install_fork_handlers();
    crate::cpu::split_alloc::tune_system_allocator();
    m.add_class::<tensor::PyTensor>()?;
    m.add_class::<tensor::PyDType>()?;
    m.add_class::<node::PyNode>()?;
    m.add_class::<node::PySavedTensor>()?;
    m.add_class::<hooks::RemovableHandle>()?;
    functions::register(m)?;
    random::register(m)?;
    nn::register(m)?;
    linalg::register(m)?;
    optim::register(m)?;
    dlpack::register(m)?;
    functions::register_test_support(m)?;
    functions::install_anomaly_hooks();
    Ok(())
}
