//! Evaluation of strategies on compiled trees: best responses, NashConv, exploitability and
//! expected values ([`best_response`]), and the PIMC policy of a compiled game ([`pimc`]).

pub mod best_response;
pub mod pimc;
