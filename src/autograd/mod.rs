//! Autograd: graph nodes and edges, saved tensors, grad modes and the backward engine.

mod arena;
mod engine;
pub mod forward;
mod function;
mod grad_mode;
mod hooks;
mod node;
mod saved;

pub use arena::{BackwardBox, NodeRef, WeakNodeRef};
pub use engine::{backward, checkpoint_valid, current_graph_task_id, grad, graph_report, multithreading_enabled, set_multithreading_enabled, queue_callback, will_execute, BackwardRequest, FinalCallback, GraphReport, TaskContext};
pub(crate) use engine::fork_lock_accumulation;
pub(crate) use arena::fork_lock as fork_lock_arena;
pub use function::{apply_function, connect_outputs, materialize, BackwardCtx, ForwardMarks, Function, FunctionCtx};
pub use grad_mode::*;
pub use hooks::{register_node_hook, register_node_prehook, HookHandle};
pub use node::*;
pub use saved::*;
