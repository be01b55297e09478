//! A fused LSTM cell step for float32: the gates' sum, their sigmoid/tanh and the state
//! update in one pass per batch row, instead of ten tensor ops over strided gate views.

use super::{alloc, math};

/// [h', c', i, f, g, o, tanh(c')] (each batch × `h`) from the input-side gates `ig` and the
/// recurrent product `hw` (batch × 4h each, gate blocks i, f, g, o) and the state `c`
/// (batch × h), with the arithmetic of the tensor ops it replaces: gates = ig + hw,
/// c' = f·c + i·g (two products, then their sum), h' = o·tanh(c'), and the same sigmoid and
/// tanh kernels.
pub(crate) fn lstm_cell_f32(ig: &[f32], hw: &[f32], c: &[f32], h: usize) -> crate::Result<Vec<Vec<f32>>> {
    let b = c.len() / h.max(1);
    let mut out: [Vec<f32>; 7] = Default::default();
    for o in out.iter_mut() {
        *o = alloc::take::<f32>(b * h)?;
    }
    if h == 0 {
        return Ok(out.into());
    }
    let mut gates = vec![0f32; 4 * h];
    let mut act = vec![0f32; 4 * h];
    for r in 0..b {
        let (igr, hwr) = (&ig[r * 4 * h..(r + 1) * 4 * h], &hw[r * 4 * h..(r + 1) * 4 * h]);
        for ((s, &a), &p) in gates.iter_mut().zip(igr).zip(hwr) {
            *s = a + p;
        }
        math::sigmoid_slice(&gates[..2 * h], &mut act[..2 * h]);
        math::tanh_slice(&gates[2 * h..3 * h], &mut act[2 * h..3 * h]);
        math::sigmoid_slice(&gates[3 * h..], &mut act[3 * h..]);
        let row = r * h..(r + 1) * h;
        let [hn, cn, i, f, g, o, tc] = &mut out;
        i[row.clone()].copy_from_slice(&act[..h]);
        f[row.clone()].copy_from_slice(&act[h..2 * h]);
        g[row.clone()].copy_from_slice(&act[2 * h..3 * h]);
        o[row.clone()].copy_from_slice(&act[3 * h..]);
        for j in 0..h {
            let fc = act[h + j] * c[r * h + j];
            let ig_ = act[j] * act[2 * h + j];
            cn[r * h + j] = fc + ig_;
        }
        math::tanh_slice(&cn[row.clone()], &mut tc[row.clone()]);
        for ((y, &ov), &t) in hn[row.clone()].iter_mut().zip(&act[3 * h..]).zip(&tc[row]) {
            *y = ov * t;
        }
    }
    Ok(out.into())
}
