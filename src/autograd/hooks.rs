//! Registering hooks on tensors and nodes, with PyTorch's checks, and the handle that removes
//! one. The hook bodies are trait objects (`TensorHook`, `PostAccHook`, ...): Rust closures or,
//! through the bindings, Python callables.

use crate::autograd::NodeRef;
use super::{next_hook_id, NodeHooks, PostAccHook, PostHook, PreHook, TensorHook};
use crate::error::Result;
use crate::tensor::{HookList, Tensor};
use crate::bail;
use parking_lot::Mutex;
use std::sync::Arc;

/// Removes a registered hook; `remove()` is idempotent and a no-op once the owner is gone.
pub struct HookHandle {
    remove: Mutex<Option<Box<dyn FnOnce() + Send + Sync>>>,
}

impl HookHandle {
    pub fn new(f: impl FnOnce() + Send + Sync + 'static) -> Self {
        HookHandle { remove: Mutex::new(Some(Box::new(f))) }
    }
    /// Unregister the hook.
    pub fn remove(&self) {
        if let Some(f) = self.remove.lock().take() {
            f();
        }
    }
}

/// A handle that edits a node's hook table (held weakly).
fn node_handle(n: &NodeRef, remove: impl Fn(&mut NodeHooks) + Send + Sync + 'static) -> HookHandle {
    let w = NodeRef::downgrade(n);
    HookHandle::new(move || {
        if let Some(n) = w.upgrade() {
            remove(&mut n.hooks.lock());
        }
    })
}

/// A handle that removes hook `id` from a tensor's own hook list (held weakly).
fn list_handle<H: ?Sized + Send + Sync + 'static>(list: &HookList<H>, id: u64) -> HookHandle {
    let w = Arc::downgrade(list);
    HookHandle::new(move || {
        if let Some(l) = w.upgrade() {
            l.lock().retain(|(i, _)| *i != id);
        }
    })
}

impl Tensor {
    /// `x.retain_grad()`: a non-leaf keeps its gradient in `.grad` after backward.
    pub fn retain_grad(&self) -> Result<()> {
        if !self.requires_grad() {
            bail!(Runtime, "can't retain_grad on Tensor that has requires_grad=False");
        }
        let mut m = self.meta();
        let Some(node) = m.grad_fn.clone() else { return Ok(()) };
        if m.retains_grad {
            return Ok(());
        }
        m.retains_grad = true;
        let nr = m.output_nr;
        drop(m);
        node.hooks.lock().retain.push((nr, Arc::downgrade(&self.0)));
        Ok(())
    }

    /// `x.register_hook(hook)`: `hook(grad)` may return a replacement gradient.
    pub fn register_hook(&self, hook: Arc<dyn TensorHook>) -> Result<HookHandle> {
        if !self.requires_grad() {
            bail!(Runtime, "cannot register a hook on a tensor that doesn't require gradient");
        }
        let id = next_hook_id();
        match self.grad_fn() {
            Some(node) => {
                node.hooks.lock().tensor_pre.push((self.output_nr(), id, hook));
                Ok(node_handle(&node, move |hk| hk.tensor_pre.retain(|(_, i, _)| *i != id)))
            }
            None => {
                let list = self.meta().hooks_list();
                list.lock().push((id, hook));
                Ok(list_handle(&list, id))
            }
        }
    }

    /// `x.register_post_accumulate_grad_hook(hook)`: runs after a leaf's `.grad` is updated.
    pub fn register_post_accumulate_grad_hook(&self, hook: Arc<dyn PostAccHook>) -> Result<HookHandle> {
        if !self.is_leaf() {
            bail!(Runtime, "post accumulate grad hooks cannot be registered on non-leaf tensors");
        }
        if !self.requires_grad() {
            bail!(Runtime, "cannot register a hook on a tensor that doesn't require gradient");
        }
        let id = next_hook_id();
        let list = self.meta().post_acc_list();
        list.lock().push((id, hook));
        Ok(list_handle(&list, id))
    }
}

/// `node.register_hook(hook)`: `hook(grad_inputs, grad_outputs)` after the node runs.
pub fn register_node_hook(node: &NodeRef, hook: Arc<dyn PostHook>) -> HookHandle {
    let id = next_hook_id();
    node.hooks.lock().post.push((id, hook));
    node_handle(node, move |h| h.post.retain(|(i, _)| *i != id))
}

/// `node.register_prehook(hook)`: `hook(grad_outputs)` before the node runs.
pub fn register_node_prehook(node: &NodeRef, hook: Arc<dyn PreHook>) -> HookHandle {
    let id = next_hook_id();
    node.hooks.lock().pre.push((id, hook));
    node_handle(node, move |h| h.pre.retain(|(i, _)| *i != id))
}
