//! Forward-mode AD: tangents carried on tensors at the dual level, propagated by each op's
//! JVP formula as the op runs (torch's `forward_ad`).
//!
//! * One level at a time, process-wide, as in PyTorch (`enter_level` / `exit_level`); leaving
//!   it forgets every tangent. While no level is live, the whole machinery is one relaxed
//!   atomic load per recorded op (`is_active`).
//! * An op with a JVP formula writes it beside its backward formula (`record_jvp`, or `jvp`
//!   after `record_with`); an op without one gets its tangent from its backward formula
//!   (`fallback`): the backward closure is linear in the output gradient `u`, so
//!   `J t = d/du <J^T u, t>`, one small reverse pass over the formula's own graph.
//! * Tangents of views are views of the base's tangent (so an in-place write through a view
//!   updates the base's tangent, as in PyTorch); an in-place op writes its result's tangent
//!   into the target's (`inplace_update`).
//! * Formulas run on history-carrying tensors, so a tangent is itself differentiable in
//!   reverse mode (reverse-over-forward); reverse passes see the tangents of the tensors
//!   they touch, so forward-over-reverse (Hessian-vector products) works too.

use crate::autograd::NodeRef;
use super::Saved;
use crate::error::Result;
use crate::ops;
use crate::tensor::{Tensor, TensorImpl};
use crate::bail;
use parking_lot::Mutex;
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Every tensor given a tangent at the live level (cleared when the level exits).
static HOLDERS: Mutex<Vec<Weak<TensorImpl>>> = Mutex::new(Vec::new());

thread_local! {
    /// Set while a fallback evaluates a backward formula: its ops must not propagate tangents
    /// (they would be thrown away, and could recurse).
    static SUSPENDED: Cell<bool> = const { Cell::new(false) };
}

/// The forward-AD level index PyTorch reports (only level 0 exists).
pub const LEVEL: i64 = 0;

/// Whether a dual level is live (and tangents are not suspended on this thread).
#[inline]
pub fn is_active() -> bool {
    ACTIVE.load(Ordering::Relaxed) && !SUSPENDED.with(|s| s.get())
}

/// Whether this thread runs with tangent propagation suspended (the engine carries it to its
/// workers for the reverse pass of a fallback).
pub fn is_suspended() -> bool {
    SUSPENDED.with(|s| s.get())
}

/// Suspends (or restores) tangent propagation on this thread until dropped.
pub struct SuspendGuard(bool);

impl SuspendGuard {
    pub fn new(on: bool) -> SuspendGuard {
        SuspendGuard(SUSPENDED.with(|s| s.replace(on)))
    }
}

impl Drop for SuspendGuard {
    fn drop(&mut self) {
        SUSPENDED.with(|s| s.set(self.0));
    }
}

/// `enter_dual_level()`: the level's index; a second live level is PyTorch's error.
pub fn enter_level() -> Result<i64> {
    if ACTIVE.swap(true, Ordering::SeqCst) {
        bail!(Runtime, "Nested forward mode AD is not supported at the moment");
    }
    Ok(LEVEL)
}

/// `exit_dual_level()`: every tangent of the level is deleted.
pub fn exit_level(level: i64) -> Result<()> {
    if !ACTIVE.load(Ordering::SeqCst) || level != LEVEL {
        bail!(Runtime, "Trying to exit a forward AD level that was not the last one that was created. This is not supported.");
    }
    let holders = std::mem::take(&mut *HOLDERS.lock());
    for h in holders {
        if let Some(t) = h.upgrade() {
            Tensor(t).meta().fw_grad = None;
        }
    }
    ACTIVE.store(false, Ordering::SeqCst);
    Ok(())
}

/// Whether a level is live (whatever this thread's suspension).
pub fn level_exists() -> bool {
    ACTIVE.load(Ordering::SeqCst)
}

/// The tangent of `t` at the live level.
#[inline]
pub fn tangent(t: &Tensor) -> Option<Tensor> {
    if !is_active() {
        return None;
    }
    t.meta().fw_grad.clone()
}

fn set_raw(t: &Tensor, tangent: Option<Tensor>) {
    let had = {
        let mut m = t.meta();
        let had = m.fw_grad.is_some();
        m.fw_grad = tangent;
        had
    };
    if !had {
        let mut h = HOLDERS.lock();
        // drop the dead entries now and then, so the list follows the live tensors
        if h.len() >= 1024 && h.len().is_power_of_two() {
            h.retain(|w| w.strong_count() > 0);
        }
        h.push(Arc::downgrade(&t.0));
    }
}

/// A tensor over fresh zeroed storage with the same geometry as `t` (size of its storage,
/// its strides and offset), so that views of `t` map onto views of the result.
fn zeros_with_geometry(t: &Tensor, dtype: crate::dtype::DType) -> Result<Tensor> {
    let (len, layout, dev) = {
        let d = t.data();
        let len = d.storage.data.read().len();
        (len, d.layout.clone(), d.storage.device())
    };
    let flat = crate::tensor::zeros_on(&[len], dtype, dev)?;
    Ok(ops::as_strided_view(&flat.detach(), &layout).detach())
}

/// Whether `a` and `b` have the same layout over storages of the same size.
fn same_geometry(a: &Tensor, b: &Tensor) -> bool {
    let (da, db) = (a.data(), b.data());
    let same = da.layout == db.layout && da.storage.data.read().len() == db.storage.data.read().len();
    same
}

/// `make_dual(primal, tangent)`'s checks and write: the tangent of `primal` becomes `tangent`
/// (itself when its layout matches, else a copy laid out as the primal).
pub fn set_tangent(primal: &Tensor, tangent: &Tensor) -> Result<()> {
    if !level_exists() {
        bail!(Runtime, "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first.");
    }
    if tangent.shape() != primal.shape() {
        bail!(Runtime, "Trying to set a forward gradient that has a different size than that of the original Tensor, this is not supported. Tensor is of size {} while the given forward gradient is of size {}.",
            crate::shape::fmt_list(&primal.shape()), crate::shape::fmt_list(&tangent.shape()));
    }
    let overlapping = { let l = primal.layout(); l.shape.iter().zip(&l.strides).any(|(&n, &s)| n > 1 && s == 0) };
    let t = if same_geometry(primal, tangent) || overlapping {
        tangent.clone()
    } else {
        let z = zeros_with_geometry(primal, tangent.dtype())?;
        ops::write_into(&z, tangent)?;
        z
    };
    set_raw(primal, Some(t));
    Ok(())
}

/// The input tangents of an op, by input position.
pub struct Tangents(Vec<Option<Tensor>>);

impl Tangents {
    /// The tangent of input `i`, if it has one.
    pub fn get(&self, i: usize) -> Option<&Tensor> {
        self.0.get(i).and_then(|t| t.as_ref())
    }
    /// The tangent of the only input.
    pub fn one(&self) -> &Tensor {
        self.get(0).expect("invariant: a JVP formula runs only when an input has a tangent")
    }
    /// `op` applied to the tangent of input `i` (None when it has none).
    pub fn map(&self, i: usize, op: impl FnOnce(&Tensor) -> Result<Tensor>) -> Result<Option<Tensor>> {
        self.get(i).map(op).transpose()
    }
}

/// The sum of the present terms (None when none is).
pub fn sum_terms(terms: impl IntoIterator<Item = Option<Tensor>>) -> Result<Option<Tensor>> {
    let mut acc: Option<Tensor> = None;
    for t in terms.into_iter().flatten() {
        acc = Some(match acc {
            None => t,
            Some(a) => ops::add(&a, &t)?,
        });
    }
    Ok(acc)
}

/// PyTorch's refusal when a tangent reaches an op that has no forward-AD formula in
/// derivatives.yaml (`op` as ATen names it, e.g. `_pdist_forward`).
pub fn refuse(inputs: &[&Tensor], op: &str) -> Result<()> {
    if is_active() && input_tangents(inputs).is_some() {
        bail!(NotImplemented, "Trying to use forward AD with {op} that does not support it because it has not been implemented yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template=feature-request.yml so that we can prioritize its implementation or submit a PR adding the implementation to derivatives.yaml");
    }
    Ok(())
}

fn input_tangents(inputs: &[&Tensor]) -> Option<Tangents> {
    let ts: Vec<Option<Tensor>> = inputs.iter().map(|t| t.meta().fw_grad.clone()).collect();
    if ts.iter().all(|t| t.is_none()) {
        None
    } else {
        Some(Tangents(ts))
    }
}

/// Forward-mode AD does not reach complex tensors yet: a tangent that would flow into one is
/// refused rather than dropped.
/// Floating and complex tensors carry tangents; integer and bool ones do not.
fn differentiable(d: crate::dtype::DType) -> bool {
    d.is_float() || d.is_complex()
}

/// Give `out` the tangent `t` (shaped and typed as `out`; a complex tangent of a real output
/// keeps its real part, PyTorch's `handle_r_to_c`); integer and bool outputs have none.
fn set_output(out: &Tensor, t: Tensor) -> Result<()> {
    if !differentiable(out.dtype()) {
        return Ok(());
    }
    let shape = out.shape();
    let t = if t.shape() != shape {
        let sizes: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        ops::clone_contiguous(&ops::expand(&t, &sizes)?)?
    } else {
        t
    };
    let t = if t.dtype() != out.dtype() { ops::to_dtype(&t, out.dtype())? } else { t };
    set_raw(out, Some(t));
    Ok(())
}

/// Apply an op's JVP formula: when a level is live and an input has a tangent, the outputs'
/// tangents are `f(input tangents)` (one per output; None leaves an output without one).
#[inline]
pub fn jvp(inputs: &[&Tensor], outputs: &[&Tensor], f: impl FnOnce(&Tangents) -> Result<Vec<Option<Tensor>>>) -> Result<()> {
    if !is_active() {
        return Ok(());
    }
    jvp_slow(inputs, outputs, f)
}

fn jvp_slow(inputs: &[&Tensor], outputs: &[&Tensor], f: impl FnOnce(&Tangents) -> Result<Vec<Option<Tensor>>>) -> Result<()> {
    let Some(ts) = input_tangents(inputs) else { return Ok(()) };
    if outputs.iter().all(|o| !differentiable(o.dtype())) {
        return Ok(());
    }
    // a formula's own ops carry no tangents (there is one level)
    let outs = {
        let _suspend = SuspendGuard::new(true);
        f(&ts)?
    };
    for (o, t) in outputs.iter().zip(outs) {
        if let Some(t) = t {
            set_output(o, t)?;
        }
    }
    Ok(())
}

/// `jvp` for a one-output op whose tangent is linear in its inputs' tangents: `f(i, t_i)`
/// per input with a tangent, summed.
pub fn jvp_linear(inputs: &[&Tensor], out: &Tensor, f: impl Fn(usize, &Tensor) -> Result<Tensor>) -> Result<()> {
    jvp(inputs, &[out], |t| {
        let terms: Result<Vec<Option<Tensor>>> = (0..inputs.len()).map(|i| t.map(i, |ti| f(i, ti))).collect();
        Ok(vec![sum_terms(terms?)?])
    })
}

/// A linear combination's tangent for `record_jvp`: `f(i, t_i)` per input with a tangent, summed.
pub fn linear(n: usize, t: &Tangents, f: impl Fn(usize, &Tensor) -> Result<Tensor>) -> Result<Vec<Option<Tensor>>> {
    let terms: Result<Vec<Option<Tensor>>> = (0..n).map(|i| t.map(i, |ti| f(i, ti))).collect();
    Ok(vec![sum_terms(terms?)?])
}

/// An alias of `t` without a tangent that keeps its place in the reverse-mode graph (for
/// evaluating a backward formula without propagating tangents through it).
fn plain_alias(t: &Tensor) -> Tensor {
    let a = t.detach();
    if let Some(e) = t.gradient_edge() {
        a.set_grad_fn(Some(e.node), e.input_nr);
    }
    a
}

/// The tangents of an op without a JVP formula, from its backward formula `bwd`: with `u`
/// standing for the outputs' gradients, `J t = d/du <bwd(u), t>`.
///
/// `node` is the op's node when it recorded one (its saved outputs then carry history, so
/// the tangent is differentiable in reverse mode); `direct` gives the saved tensors otherwise.
pub(crate) fn fallback(
    inputs: &[&Tensor],
    outputs: &[&Tensor],
    node: Option<&NodeRef>,
    direct: &[Tensor],
    bwd: &dyn Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>>,
) -> Result<()> {
    if !is_active() {
        return Ok(());
    }
    let Some(ts) = input_tangents(inputs) else { return Ok(()) };
    if outputs.iter().all(|o| !differentiable(o.dtype()) || o.meta().fw_grad.is_some()) {
        return Ok(()); // (views got their tangents as views of the input's)
    }
    // the tangent keeps reverse-mode history when anything it is computed from has some
    let outer_grad = super::is_grad_enabled();
    let create = outer_grad
        && (inputs.iter().any(|t| t.requires_grad()) || ts.0.iter().flatten().any(|t| t.requires_grad()));
    let _suspend = SuspendGuard::new(true);
    let _mode = super::GradModeGuard::new(true);
    let us: Vec<Tensor> = outputs
        .iter()
        .map(|o| -> Result<Tensor> {
            let z = crate::tensor::zeros_on(&o.shape(), if differentiable(o.dtype()) { o.dtype() } else { crate::dtype::DType::Float32 }, o.device())?;
            z.set_requires_grad(true)?;
            Ok(z)
        })
        .collect::<Result<_>>()?;
    let needs: Vec<bool> = ts.0.iter().map(|t| t.is_some()).collect();
    let gin = match node {
        Some(n) => {
            let b = n.backward().expect("invariant: a recorded op node has a backward");
            b.apply(n, us.iter().cloned().map(Some).collect(), &needs)?
        }
        None => {
            let aliases: Vec<Tensor> = direct.iter().map(plain_alias).collect();
            if outputs.iter().any(|o| o.dtype().is_complex()) && !super::node::as_written_active() {
                // the formula is the complex chain rule; the backward is its conjugate form,
                // as `record_with` builds it for a recorded node
                let cu = us.iter().map(ops::complex::conj).collect::<Result<Vec<_>>>()?;
                bwd(&Saved::direct(&aliases), &cu, &needs)?
                    .into_iter()
                    .map(|r| r.map(|t| ops::complex::conj(&t)).transpose())
                    .collect::<Result<Vec<_>>>()?
            } else {
                bwd(&Saved::direct(&aliases), &us, &needs)?
            }
        }
    };
    let mut terms = Vec::new();
    for (g, t) in gin.iter().zip(ts.0.iter()) {
        if let (Some(g), Some(t)) = (g, t) {
            let t = plain_alias(t);
            // the real inner product <g, t> (Re(conj(g) t) for complex ones): the backward
            // is J^T on the real and imaginary parts, so its derivative in u is J t
            let prod = if g.dtype().is_complex() || t.dtype().is_complex() {
                ops::complex::real(&ops::mul(&ops::complex::conj(g)?, &t)?)?
            } else {
                ops::mul(g, &t)?
            };
            terms.push(Some(ops::sum(&prod, None)?));
        }
    }
    let v = sum_terms(terms)?;
    let grads = match v {
        Some(v) if v.requires_grad() => {
            let one = crate::tensor::full_on(&[], crate::Scalar::Int(1), v.dtype(), v.device())?;
            super::grad(super::BackwardRequest {
                outputs: vec![v],
                grad_outputs: vec![one],
                keep_graph: create,
                create_graph: create,
                inputs: Some(us.clone()),
                accumulate: false,
            })?
        }
        _ => vec![None; us.len()],
    };
    drop(_mode);
    drop(_suspend);
    for ((o, g), u) in outputs.iter().zip(grads).zip(&us) {
        if !differentiable(o.dtype()) || o.meta().fw_grad.is_some() {
            continue;
        }
        let t = match g {
            Some(g) => g,
            None => crate::tensor::zeros_on(&u.shape(), o.dtype(), o.device())?,
        };
        set_output(o, t)?;
    }
    Ok(())
}

/// The tangent of an elementwise op's output: its backward formula applied to `x`'s tangent
/// (the Jacobian is diagonal, so `J t = J^T t`).
pub(crate) fn elementwise(
    x: &Tensor,
    out: &Tensor,
    node: Option<&NodeRef>,
    direct: &[Tensor],
    bwd: &dyn Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>>,
) -> Result<()> {
    let Some(t) = tangent(x) else { return Ok(()) };
    if out.dtype().is_complex() || x.dtype().is_complex() {
        return elementwise_complex(x, out, t, node, direct, bwd);
    }
    if !out.dtype().is_float() {
        return Ok(());
    }
    let t = if t.shape() != out.shape() || t.dtype() != out.dtype() {
        // a promoted input (int -> float) has no tangent; a shape change is not elementwise
        return fallback(&[x], &[out], node, direct, bwd);
    } else {
        t
    };
    let _suspend = SuspendGuard::new(true);
    let r = match node {
        Some(n) => {
            let b = n.backward().expect("invariant: a recorded op node has a backward");
            b.apply(n, vec![Some(t)], &[true])?
        }
        None => bwd(&Saved::direct(direct), &[t], &[true])?,
    };
    drop(_suspend);
    match r.into_iter().next().flatten() {
        Some(r) => set_output(out, r),
        None => set_output(out, crate::tensor::zeros_on(&out.shape(), out.dtype(), out.device())?),
    }
}

/// A complex elementwise op's tangent. Its node's backward is the conjugate of the formula
/// written as the complex chain rule (`record_with`), `conj(f(conj g))` with `f(g) = g f'(z)`,
/// so the tangent `f'(z) t` is `conj(backward(conj t))`. A formula recorded as written (it
/// takes real and imaginary parts: not holomorphic) has no such form and is refused.
fn elementwise_complex(
    x: &Tensor,
    out: &Tensor,
    t: Tensor,
    node: Option<&NodeRef>,
    direct: &[Tensor],
    bwd: &dyn Fn(&Saved<'_>, &[Tensor], &[bool]) -> Result<Vec<Option<Tensor>>>,
) -> Result<()> {
    if !out.dtype().is_complex() || super::node::as_written_active() || t.shape() != out.shape() {
        // not a complex scalar derivative: the general JVP from the backward formula
        return fallback(&[x], &[out], node, direct, bwd);
    }
    let _suspend = SuspendGuard::new(true);
    let ct = ops::complex::conj(&ops::to_dtype(&t, out.dtype())?)?;
    let r = match node {
        Some(n) => {
            let b = n.backward().expect("invariant: a recorded op node has a backward");
            b.apply(n, vec![Some(ct)], &[true])?
        }
        // (no node: the formula itself is the chain rule, not conjugated)
        None => return set_output(out, bwd(&Saved::direct(direct), &[t], &[true])?.into_iter().next().flatten()
            .map_or_else(|| crate::tensor::zeros_on(&out.shape(), out.dtype(), out.device()), Ok)?),
    };
    drop(_suspend);
    match r.into_iter().next().flatten() {
        Some(r) => set_output(out, ops::complex::conj(&r)?),
        None => set_output(out, crate::tensor::zeros_on(&out.shape(), out.dtype(), out.device())?),
    }
}

/// Tangent of a view `v` of `x`: the same view of `x`'s tangent, when that tangent is laid out
/// as `x` (it then shares the geometry, so in-place writes through either agree). A view of
/// another dtype (`view_as_real`) gets its tangent from its op's JVP formula.
pub(crate) fn view_tangent(x: &Tensor, v: &Tensor) {
    let Some(xt) = tangent(x) else { return };
    if !same_geometry(x, &xt) || !differentiable(v.dtype()) || v.dtype() != x.dtype() || xt.dtype() != x.dtype() {
        return;
    }
    set_raw(v, Some(ops::make_view(&xt, v.layout())));
}

/// After an in-place layout change of `x` (`t_`, `squeeze_`...): its tangent takes the same
/// layout, when it shares `x`'s geometry (else it is dropped and recomputed by the op's node).
pub(crate) fn relayout_tangent(x: &Tensor, old: &crate::shape::Layout) {
    let Some(xt) = tangent(x) else { return };
    if xt.layout() == *old {
        let mut d = xt.data().clone();
        d.layout = x.layout();
        xt.set_data(d);
    } else {
        set_raw(x, None);
    }
}

/// After an in-place op wrote `result` into `target`: `target`'s tangent becomes `result`'s
/// (zero when it has none), written into the existing tangent storage (or a view of the
/// base's tangent, created zero) so that aliases see it.
pub(crate) fn inplace_update(target: &Tensor, result: &Tensor) -> Result<()> {
    if !is_active() || !differentiable(target.dtype()) {
        return Ok(());
    }
    let rt = result.meta().fw_grad.clone();
    let cur = target.meta().fw_grad.clone();
    if rt.is_none() && cur.is_none() {
        // a view of a base with a tangent gets one below; anything else stays tangent-free
        let base = target.meta().view_base.clone();
        let base_has = base.is_some_and(|b| b.meta().fw_grad.is_some());
        if !base_has {
            return Ok(());
        }
    }
    let dst = match cur {
        Some(c) => c,
        None => {
            let base = target.meta().view_base.clone().filter(|b| !b.same(target));
            match base {
                Some(b) => {
                    let existing = b.meta().fw_grad.clone();
                    let bt = match existing {
                        Some(bt) if same_geometry(&b, &bt) => bt,
                        _ => {
                            let z = zeros_with_geometry(&b, b.dtype())?;
                            set_raw(&b, Some(z.clone()));
                            z
                        }
                    };
                    let vt = ops::make_view(&bt, target.layout());
                    set_raw(target, Some(vt.clone()));
                    vt
                }
                None => {
                    let z = zeros_with_geometry(target, target.dtype())?;
                    set_raw(target, Some(z.clone()));
                    z
                }
            }
        }
    };
    match rt {
        Some(rt) => ops::write_into(&dst, &rt)?,
        None => ops::write_into(&dst, &crate::tensor::zeros_on(&[], dst.dtype(), dst.device())?)?,
    }
    dst.bump_version();
    Ok(())
}

/// Copy `src`'s tangent onto `dst` (for an alias standing in for `src`).
pub(crate) fn share(src: &Tensor, dst: &Tensor) {
    if is_active() {
        if let Some(t) = src.meta().fw_grad.clone() {
            set_raw(dst, Some(t));
        }
    }
}

/// `make_dual(primal, tangent)`: a view of `primal` (ViewBackward0 when it requires grad)
/// whose tangent is `tangent`.
///
/// ```
/// use ferrograd::autograd::forward;
/// let x = ferrograd::Tensor::from_vec(vec![1.0f32, 2.0], &[2]).unwrap();
/// let t = ferrograd::Tensor::from_vec(vec![1.0f32, 0.0], &[2]).unwrap();
/// let level = forward::enter_level().unwrap();
/// let d = forward::make_dual(&x, &t).unwrap();
/// let y = ferrograd::ops::exp(&d).unwrap();
/// let (_, ty) = forward::unpack_dual(&y).unwrap();
/// assert_eq!(ty.unwrap().to_f64_vec().unwrap()[1], 0.0);
/// forward::exit_level(level).unwrap();
/// ```
pub fn make_dual(primal: &Tensor, tangent: &Tensor) -> Result<Tensor> {
    if !level_exists() {
        bail!(Runtime, "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first.");
    }
    if !differentiable(primal.dtype()) {
        bail!(Value, "Expected primal to be floating point or complex, but got: {}", primal.dtype().name());
    }
    if !differentiable(tangent.dtype()) {
        bail!(Value, "Expected tangent to be floating point or complex, but got: {}", tangent.dtype().name());
    }
    let sizes: Vec<i64> = primal.shape().iter().map(|&d| d as i64).collect();
    let dual = ops::view(primal, &sizes)?;
    set_tangent(&dual, tangent)?;
    Ok(dual)
}

/// `unpack_dual(t)`: a tangent-free view of `t` (the primal) and `t`'s tangent.
pub fn unpack_dual(t: &Tensor) -> Result<(Tensor, Option<Tensor>)> {
    let tan = if level_exists() { t.meta().fw_grad.clone() } else { None };
    let primal = ops::alias(t)?;
    if primal.meta().fw_grad.is_some() {
        primal.meta().fw_grad = None;
    }
    Ok((primal, tan))
}
