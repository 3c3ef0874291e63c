//! The network of a learned policy: a multilayer perceptron, `sizes[0]` inputs, ReLU hidden
//! layers, `sizes.last()` outputs (one logit per action of its decision kind).
//!
//! Training uses candle ([`Mlp`]: variables in a `VarMap`, initialised from a seeded stream so
//! that training is reproducible; candle's own CPU generator cannot be seeded). Play uses
//! [`DenseMlp`], the same weights in plain vectors and a forward pass without tensors: one
//! position at a time costs a few tens of microseconds instead of candle's per-operation
//! overhead. Files are safetensors with tensors `l{i}.weight` (`out × in`) and `l{i}.bias`, so
//! PyTorch loads them (`torch.nn.Linear` layers in order).

use crate::error::{Error, Result};
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{Linear, Module, VarMap};
use rand::Rng;
use rand_pcg::Pcg64;
use std::path::Path;

/// A candle error as a cfrkit error.
pub fn candle_error(e: candle_core::Error) -> Error {
    Error::invalid("network", e, "a computation the network supports")
}

/// A network for training.
pub struct Mlp {
    layers: Vec<Linear>,
}

impl Mlp {
    /// A network of `sizes` (inputs, hidden…, outputs) whose weights are new variables of
    /// `varmap`, drawn from `rng` (uniform in ±1/√inputs, as PyTorch's default).
    pub fn init(varmap: &VarMap, sizes: &[usize], rng: &mut Pcg64) -> Result<Mlp> {
        if sizes.len() < 2 || sizes.contains(&0) {
            return Err(Error::invalid(
                "network sizes",
                format!("{sizes:?}"),
                "inputs, hidden sizes, outputs; all positive",
            ));
        }
        let mut layers = Vec::new();
        let mut vars = varmap.data().lock().map_err(|_| Error::invalid("network", "variables", "unlocked"))?;
        for (i, w) in sizes.windows(2).enumerate() {
            let (inputs, outputs) = (w[0], w[1]);
            let bound = 1.0 / (inputs as f32).sqrt();
            let mut draw = |n: usize| (0..n).map(|_| rng.gen_range(-bound..bound)).collect::<Vec<f32>>();
            let weight =
                Var::from_vec(draw(inputs * outputs), (outputs, inputs), &Device::Cpu).map_err(candle_error)?;
            let bias = Var::from_vec(draw(outputs), outputs, &Device::Cpu).map_err(candle_error)?;
            layers.push(Linear::new(weight.as_tensor().clone(), Some(bias.as_tensor().clone())));
            vars.insert(format!("l{i}.weight"), weight);
            vars.insert(format!("l{i}.bias"), bias);
        }
        Ok(Mlp { layers })
    }

    /// The logits of a batch of inputs (`rows × sizes[0]`).
    pub fn forward(&self, xs: &Tensor) -> candle_core::Result<Tensor> {
        let mut h = xs.clone();
        for (i, l) in self.layers.iter().enumerate() {
            h = l.forward(&h)?;
            if i + 1 < self.layers.len() {
                h = h.relu()?;
            }
        }
        Ok(h)
    }
}

/// The weights of `varmap` (as [`Mlp::init`] names them) for layers of `sizes`, as plain
/// vectors.
pub fn dense_of(varmap: &VarMap, sizes: &[usize]) -> Result<DenseMlp> {
    let vars = varmap.data().lock().map_err(|_| Error::invalid("network", "variables", "unlocked"))?;
    let get = |name: String| -> Result<Vec<f32>> {
        let v = vars.get(&name).ok_or_else(|| Error::invalid("network", &name, "a variable of the network"))?;
        v.as_tensor().flatten_all().and_then(|t| t.to_vec1::<f32>()).map_err(candle_error)
    };
    let layers = (0..sizes.len() - 1)
        .map(|i| Ok((get(format!("l{i}.weight"))?, get(format!("l{i}.bias"))?)))
        .collect::<Result<Vec<_>>>()?;
    DenseMlp::new(sizes.to_vec(), layers)
}

/// A network for play: weights in plain vectors.
#[derive(Clone, Debug, PartialEq)]
pub struct DenseMlp {
    sizes: Vec<usize>,
    /// Per layer: the weights (`out × in`, row by row) and the biases.
    layers: Vec<(Vec<f32>, Vec<f32>)>,
}

impl DenseMlp {
    /// A network of `sizes` with `layers` (weights `out × in` row by row, biases), checked.
    pub fn new(sizes: Vec<usize>, layers: Vec<(Vec<f32>, Vec<f32>)>) -> Result<DenseMlp> {
        let fits = sizes.len() == layers.len() + 1
            && layers
                .iter()
                .enumerate()
                .all(|(i, (w, b))| w.len() == sizes[i] * sizes[i + 1] && b.len() == sizes[i + 1]);
        if !fits || layers.iter().any(|(w, b)| w.iter().chain(b).any(|x| !x.is_finite())) {
            return Err(Error::invalid("network", format!("{sizes:?}"), "weights of the layer sizes, all finite"));
        }
        Ok(DenseMlp { sizes, layers })
    }

    /// The layer sizes.
    pub fn sizes(&self) -> &[usize] {
        &self.sizes
    }

    /// The logits of one input.
    pub fn forward(&self, input: &[f32]) -> Vec<f32> {
        let mut h = input.to_vec();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let n = h.len();
            let mut out: Vec<f32> = b.clone();
            for (o, row) in out.iter_mut().zip(w.chunks_exact(n)) {
                *o += dot(row, &h);
            }
            if i + 1 < self.layers.len() {
                out.iter_mut().for_each(|x| *x = x.max(0.0));
            }
            h = out;
        }
        h
    }

    /// Writes the network as safetensors to `path` (a temporary file beside it, then renamed).
    pub fn save(&self, path: &Path) -> Result<()> {
        let mut tensors = std::collections::HashMap::new();
        for (i, (w, b)) in self.layers.iter().enumerate() {
            let (inputs, outputs) = (self.sizes[i], self.sizes[i + 1]);
            tensors.insert(
                format!("l{i}.weight"),
                Tensor::from_vec(w.clone(), (outputs, inputs), &Device::Cpu).map_err(candle_error)?,
            );
            tensors.insert(
                format!("l{i}.bias"),
                Tensor::from_vec(b.clone(), outputs, &Device::Cpu).map_err(candle_error)?,
            );
        }
        crate::store::replace_atomic(path, |tmp| {
            candle_core::safetensors::save(&tensors, tmp)
                .map_err(|e| Error::invalid("network file", tmp.display(), e.to_string()))
        })
    }

    /// Reads a network of `sizes` from the safetensors file at `path`; a file of other sizes,
    /// or not a safetensors file, is refused.
    pub fn load(path: &Path, sizes: &[usize]) -> Result<DenseMlp> {
        let bad = |why: String| Error::BadFile { path: path.display().to_string(), reason: why };
        let tensors =
            candle_core::safetensors::load(path, &Device::Cpu).map_err(|e| bad(format!("not a network ({e})")))?;
        let mut layers = Vec::new();
        for i in 0..sizes.len().saturating_sub(1) {
            let get = |name: String, shape: Vec<usize>| -> Result<Vec<f32>> {
                let t = tensors.get(&name).ok_or_else(|| bad(format!("no tensor {name}")))?;
                if t.dims() != shape.as_slice() || t.dtype() != DType::F32 {
                    return Err(bad(format!("{name} is {:?} {:?}, not f32 {shape:?}", t.dtype(), t.dims())));
                }
                t.flatten_all().and_then(|t| t.to_vec1::<f32>()).map_err(|e| bad(e.to_string()))
            };
            layers.push((
                get(format!("l{i}.weight"), vec![sizes[i + 1], sizes[i]])?,
                get(format!("l{i}.bias"), vec![sizes[i + 1]])?,
            ));
        }
        DenseMlp::new(sizes.to_vec(), layers).map_err(|e| bad(e.to_string()))
    }
}

/// The dot product of `a` and `b` (equal lengths), in eight independent sums so that the
/// compiler keeps them in one vector register.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let (ac, bc) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ac.remainder().iter().zip(bc.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in ac.zip(bc) {
        for k in 0..8 {
            sums[k] += x[k] * y[k];
        }
    }
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The plain forward pass equals candle's; a saved network loads back equal; a file of
    /// other sizes is refused.
    #[test]
    fn dense_forward_equals_candle_and_files_round_trip() {
        let varmap = VarMap::new();
        let sizes = [5, 7, 3];
        let mlp = Mlp::init(&varmap, &sizes, &mut Pcg64::seed_from_u64(1)).unwrap();
        let dense = dense_of(&varmap, &sizes).unwrap();
        let x = [0.5f32, -1.0, 0.25, 2.0, 0.0];
        let t = Tensor::from_vec(x.to_vec(), (1, 5), &Device::Cpu).unwrap();
        let want = mlp.forward(&t).unwrap().flatten_all().unwrap().to_vec1::<f32>().unwrap();
        let got = dense.forward(&x);
        assert!(want.iter().zip(&got).all(|(a, b)| (a - b).abs() < 1e-5), "{want:?} {got:?}");
        let dir = tempfile::Builder::new().prefix("cfrkit-mlp-").tempdir().unwrap();
        let path = dir.path().join("net.safetensors");
        dense.save(&path).unwrap();
        assert_eq!(DenseMlp::load(&path, &sizes).unwrap(), dense);
        assert!(DenseMlp::load(&path, &[5, 8, 3]).unwrap_err().to_string().contains("l0.weight"));
        std::fs::write(&path, b"not a network").unwrap();
        assert!(DenseMlp::load(&path, &sizes).is_err());
        // The same seed draws the same weights.
        let again = VarMap::new();
        Mlp::init(&again, &sizes, &mut Pcg64::seed_from_u64(1)).unwrap();
        assert_eq!(dense_of(&again, &sizes).unwrap(), dense);
    }
}
