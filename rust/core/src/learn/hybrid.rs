//! The options and name of every game's hybrid agent: a learned policy (`net:DIR`) before trick
//! `K`, PIMC from it on (`hybrid:net=DIR,from=K[,precardplay=net|pimc][,PIMC options]`); the
//! decisions before the cards go to the policy (`precardplay=net`, the default) or to the PIMC
//! agent (`precardplay=pimc`: its own search or pre-cardplay agent, so that a hybrid and its
//! PIMC bid alike and differ in the early tricks only). PIMC is costliest in the
//! first tricks (many unseen cards, deep searches) and strongest late; a network costs
//! microseconds at any point: the hybrid buys most of PIMC's card play for a fraction of its
//! time. Every game plays it with its own policy and PIMC agents (`games::skat::hybrid`,
//! `games::schafkopf::hybrid`, `games::setback::play::hybrid`).

use crate::arena::log::Valued;
use crate::error::{Error, Result};
use crate::spec::{split_options, AgentOptions};
use crate::trick::{Agent, TrickGame};
use rand_pcg::Pcg64;
use std::sync::Arc;

/// A parsed `hybrid:` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct HybridSpec {
    /// The options after `net:` of the early agent (the policy directory).
    pub net: String,
    /// The first trick (1-based) PIMC plays.
    pub from: u8,
    /// Whether the PIMC agent (not the policy) takes the decisions before the cards.
    pub precardplay_by_pimc: bool,
    /// The options after `pimc:` of the late agent.
    pub pimc: String,
}

/// The help text of `hybrid:` for a game of `tricks` tricks whose PIMC plays from trick
/// `default_from` unless told otherwise.
pub fn help(tricks: u64, default_from: u64) -> String {
    format!(
        "net=DIR (a policy directory made by `cfrkit learn imitate`), from=K (the trick, 1 to {tricks}, from which \
         PIMC plays; default {default_from}), precardplay=net|pimc (who decides before the cards; default net) \
         and any options of the game's pimc (worlds=N, seed=S, ...), \
         e.g. net=policies/game,from=3,worlds=40"
    )
}

impl HybridSpec {
    /// Parses the options after `hybrid:` for a game of `tricks` tricks.
    pub fn parse(args: &str, tricks: u64, default_from: u64) -> Result<HybridSpec> {
        let help = help(tricks, default_from);
        let keys = ["net", "from", "precardplay"];
        let (own, pimc) = split_options(args, &keys);
        let o = AgentOptions::parse("hybrid", &own, &keys, &help)?;
        let net = o.text("net").ok_or_else(|| Error::invalid("hybrid net", "none", help.clone()))?;
        let from = o.uint("from", default_from, 1, tricks)? as u8;
        let precardplay_by_pimc = match o.text("precardplay").map(str::to_ascii_lowercase).as_deref() {
            None | Some("net") => false,
            Some("pimc") => true,
            Some(other) => return Err(Error::invalid("hybrid precardplay", other, help)),
        };
        Ok(HybridSpec { net: net.to_string(), from, precardplay_by_pimc, pimc })
    }
}

impl HybridSpec {
    /// The hybrid agent's name from its parts' names (`net:DIR`, `pimc:…`):
    /// `hybrid:net=DIR,from=K[,precardplay=pimc],worlds=N…`.
    pub fn name(&self, net: &str, pimc: &str) -> String {
        let dir = net.strip_prefix("net:").unwrap_or(net);
        let pimc = pimc.strip_prefix("pimc:").unwrap_or(pimc);
        let by = if self.precardplay_by_pimc { ",precardplay=pimc" } else { "" };
        format!("hybrid:net={dir},from={}{by},{pimc}", self.from)
    }
}

/// A hybrid of two agents of one game (`A` is the game's agent trait object,
/// `dyn Agent<Game>`): the policy's before trick `from`, PIMC's from it on; before the cards as
/// `precardplay` says.
pub struct Hybrid<A: ?Sized> {
    spec: HybridSpec,
    net: Arc<A>,
    pimc: Arc<A>,
}

impl<A: ?Sized> Hybrid<A> {
    /// The hybrid of `spec` with its two agents.
    pub fn new(spec: HybridSpec, net: Arc<A>, pimc: Arc<A>) -> Hybrid<A> {
        Hybrid { spec, net, pimc }
    }

    /// The agent of a decision in the tricks with `tricks_done` tricks completed (None: before
    /// the cards).
    pub fn agent_for(&self, tricks_done: Option<u8>) -> &A {
        let pimc = match tricks_done {
            Some(done) => done + 1 >= self.spec.from,
            None => self.spec.precardplay_by_pimc,
        };
        if pimc {
            &self.pimc
        } else {
            &self.net
        }
    }

    /// The spec, the policy's agent and PIMC's.
    pub fn parts(&self) -> (&HybridSpec, &A, &A) {
        (&self.spec, &self.net, &self.pimc)
    }
}

impl<G: TrickGame> Hybrid<dyn Agent<G>> {
    /// The hybrid of the options after `hybrid:` for a game of `tricks` tricks whose PIMC plays
    /// from `default_from` unless told, its agents built by the game: `net` from the options
    /// after `net:`, `pimc` from those after `pimc:`.
    pub fn from_options(
        args: &str,
        tricks: u64,
        default_from: u64,
        net: impl FnOnce(&str) -> Result<Arc<dyn Agent<G>>>,
        pimc: impl FnOnce(&str) -> Result<Arc<dyn Agent<G>>>,
    ) -> Result<Self> {
        let spec = HybridSpec::parse(args, tricks, default_from)?;
        let net = net(&spec.net)?;
        let pimc = pimc(&spec.pimc)?;
        Ok(Hybrid::new(spec, net, pimc))
    }
}

impl<G: TrickGame> Agent<G> for Hybrid<dyn Agent<G>> {
    fn name(&self) -> String {
        let (spec, net, pimc) = self.parts();
        spec.name(&net.name(), &pimc.name())
    }

    fn act(&self, view: &G::View<'_>, rng: &mut Pcg64) -> Result<G::Action> {
        self.agent_for(G::tricks_done(view)).act(view, rng)
    }

    fn act_valued(&self, view: &G::View<'_>, rng: &mut Pcg64) -> Result<Valued<G::Action>> {
        self.agent_for(G::tricks_done(view)).act_valued(view, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_split_into_their_agents_and_bad_ones_are_refused() {
        let s = HybridSpec::parse("worlds=8,NET=Pol/A,from=3,seed=2", 10, 4).unwrap();
        let want =
            HybridSpec { net: "Pol/A".into(), from: 3, precardplay_by_pimc: false, pimc: "worlds=8,seed=2".into() };
        assert_eq!(s, want);
        let p = HybridSpec::parse("net=p,precardplay=PIMC", 8, 3).unwrap();
        assert!(p.from == 3 && p.precardplay_by_pimc);
        assert_eq!(p.name("net:p", "pimc:worlds=8"), "hybrid:net=p,from=3,precardplay=pimc,worlds=8");
        assert_eq!(s.name("net:pol", "pimc:worlds=8"), "hybrid:net=pol,from=3,worlds=8");
        let h = Hybrid::new(p, Arc::new("net"), Arc::new("pimc"));
        let picks: Vec<&str> = [None, Some(0), Some(1), Some(2), Some(7)].map(|t| *h.agent_for(t)).to_vec();
        assert_eq!(picks, ["pimc", "net", "net", "pimc", "pimc"]);
        for (bad, want) in [
            ("worlds=8", "hybrid net"),
            ("net=p,from=0", "from"),
            ("net=p,from=11", "1 to 10"),
            ("net=p,precardplay=rules", "precardplay"),
        ] {
            let e = HybridSpec::parse(bad, 10, 4).unwrap_err().to_string();
            assert!(e.contains(want), "{bad}: {e}");
        }
    }
}
