//! The `cfrkit._cfrkit` extension module: conversions, GIL release, calls into the core.
//! One file per core concept; no game logic here.

use pyo3::prelude::*;

mod arena;
mod args;
mod blackjack;
mod callable;
mod cfr;
mod env;
mod errors;
mod game;
mod iss;
mod learn;
mod log;
mod matches;
mod pimc;
mod policy;
mod schafkopf;
mod setback;
mod setback_play;
mod skat;
mod solver;
mod store;

#[pymodule]
fn _cfrkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    args::register(m)?;
    store::register(m)?;
    cfr::register(m)?;
    game::register(m)?;
    learn::register(m)?;
    log::register(m)?;
    matches::register(m)?;
    solver::register(m)?;
    policy::register(m)?;
    pimc::register(m)?;
    blackjack::register(m)?;
    schafkopf::register(m)?;
    setback::register(m)?;
    setback_play::register(m)?;
    skat::register(m)?;
    iss::register(m)?;
    Ok(())
}
