//! What every game's learning environment hands Python: a seat's observation, its features and
//! its legal-action mask as numpy arrays.

use numpy::PyArray1;
use pyo3::prelude::*;

/// A seat's observation: its features (float32) and its mask over the game's action ids.
pub type Observation<'py> = (Bound<'py, PyArray1<f32>>, Bound<'py, PyArray1<bool>>);

/// The observation of `features` and `mask`.
pub fn observation(py: Python<'_>, features: Vec<f32>, mask: Vec<bool>) -> Observation<'_> {
    (PyArray1::from_vec(py, features), PyArray1::from_vec(py, mask))
}
