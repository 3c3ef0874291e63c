//! Spec strings: games in OpenSpiel's style, `name` or `name(key=value,...)` (list values are
//! written with `-`: `up=6-6-2`), and the options of agent specs, `kind:key=value,...`.

use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// A parsed game spec.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    /// The game's name, lower case.
    pub name: String,
    /// Parameters in key order.
    pub params: BTreeMap<String, String>,
}

impl Spec {
    /// Parses `name(key=value,...)`.
    pub fn parse(text: &str) -> Result<Spec> {
        let text = text.trim();
        let bad = |why: &str| Error::invalid("game spec", text, format!("{why}; expected name or name(key=value,...)"));
        let (name, rest) = match text.find('(') {
            Some(i) => {
                if !text.ends_with(')') {
                    return Err(bad("missing closing parenthesis"));
                }
                (&text[..i], &text[i + 1..text.len() - 1])
            }
            None => (text, ""),
        };
        let name = name.trim().to_ascii_lowercase();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '+') {
            return Err(bad("bad game name"));
        }
        let mut params = BTreeMap::new();
        for part in rest.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| bad("parameter without '='"))?;
            let k = k.trim().to_string();
            if params.insert(k.clone(), v.trim().to_string()).is_some() {
                return Err(bad(&format!("parameter {k:?} given twice")));
            }
        }
        Ok(Spec { name, params })
    }

    /// Fails if any parameter is not in `allowed`.
    pub fn only(&self, allowed: &[&str]) -> Result<()> {
        for k in self.params.keys() {
            if !allowed.contains(&k.as_str()) {
                let allowed = if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") };
                return Err(Error::invalid(
                    format!("parameter of game {}", self.name),
                    k,
                    format!("allowed parameters: {allowed}"),
                ));
            }
        }
        Ok(())
    }

    /// An integer parameter in `lo..=hi`, or `default`.
    pub fn int(&self, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64> {
        match self.params.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<i64>() {
                Ok(x) if (lo..=hi).contains(&x) => Ok(x),
                _ => Err(Error::invalid(format!("{}.{key}", self.name), v, format!("an integer in {lo}..={hi}"))),
            },
        }
    }

    /// A `-`-separated list of integers, each in `lo..=hi`, of exactly `len` entries.
    pub fn int_list(&self, key: &str, default: &[i64], len: usize, lo: i64, hi: i64) -> Result<Vec<i64>> {
        let Some(v) = self.params.get(key) else { return Ok(default.to_vec()) };
        let err = || {
            Error::invalid(format!("{}.{key}", self.name), v, format!("{len} integers in {lo}..={hi} separated by '-'"))
        };
        let xs: Vec<i64> =
            v.split('-').map(|x| x.trim().parse::<i64>()).collect::<std::result::Result<_, _>>().map_err(|_| err())?;
        if xs.len() != len || xs.iter().any(|x| !(lo..=hi).contains(x)) {
            return Err(err());
        }
        Ok(xs)
    }
}

/// The options of an agent spec, the part after `kind:` in e.g. `pimc:worlds=40,threads=2`:
/// comma-separated `key=value` pairs, each key at most once. Every error names the bad item:
/// an unknown or repeated key with `help`, the text that lists what the agent accepts; a bad
/// number with the range allowed.
#[derive(Clone, Debug)]
pub struct AgentOptions {
    kind: String,
    values: BTreeMap<String, String>,
}

impl AgentOptions {
    /// Parses the options `text` of an agent of `kind`, whose keys are `allowed`.
    pub fn parse(kind: &str, text: &str, allowed: &[&str], help: &str) -> Result<AgentOptions> {
        let bad =
            |what: &str, item: &str, why: &str| Error::invalid(format!("{kind} {what}"), item, format!("{why}{help}"));
        let mut values = BTreeMap::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((key, value)) = item.split_once('=') else { return Err(bad("option", item, "")) };
            let key = key.trim().to_ascii_lowercase();
            let key = key.as_str();
            if !allowed.contains(&key) {
                return Err(bad("option", key, ""));
            }
            if values.insert(key.to_string(), value.trim().to_string()).is_some() {
                return Err(bad("option", item, "each option once: "));
            }
        }
        Ok(AgentOptions { kind: kind.to_string(), values })
    }

    /// The unsigned integer option `key` in `lo..=hi`, or `default` when not given.
    pub fn uint(&self, key: &str, default: u64, lo: u64, hi: u64) -> Result<u64> {
        let Some(v) = self.values.get(key) else { return Ok(default) };
        match v.parse::<u64>() {
            Ok(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(Error::invalid(format!("{} {key}", self.kind), v, format!("an integer from {lo} to {hi}"))),
        }
    }

    /// The text of option `key`, if given.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// The `threads` option checked as thread counts are everywhere (0 = all cores, the
    /// default).
    pub fn threads(&self) -> Result<usize> {
        crate::threads::check(self.uint("threads", 0, 0, crate::threads::MAX_THREADS as u64)?)
    }

    /// The `seed` option (any unsigned 64-bit integer, default 0).
    pub fn seed(&self) -> Result<u64> {
        self.uint("seed", 0, 0, u64::MAX)
    }
}

/// Splits agent options `text` into the items whose key (any case) is one of `keys` and the
/// others, each part joined with commas in its order: for an agent that takes some options
/// itself and hands the rest to an agent it is built on.
pub fn split_options(text: &str, keys: &[&str]) -> (String, String) {
    let (own, rest): (Vec<&str>, Vec<&str>) =
        text.split(',').map(str::trim).filter(|s| !s.is_empty()).partition(|item| {
            let key = item.split_once('=').map_or(*item, |kv| kv.0).trim().to_ascii_lowercase();
            keys.contains(&key.as_str())
        });
    (own.join(","), rest.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_and_params() {
        let s = Spec::parse("blackjack(up=6-6-2,max_hits=1)").unwrap();
        assert_eq!(s.name, "blackjack");
        assert_eq!(s.int_list("up", &[], 3, 1, 10).unwrap(), vec![6, 6, 2]);
        assert_eq!(s.int("max_hits", 0, 0, 20).unwrap(), 1);
        assert_eq!(Spec::parse(" Leduc ").unwrap().name, "leduc");
    }

    #[test]
    fn rejects_bad_specs() {
        assert!(Spec::parse("kuhn(").is_err());
        assert!(Spec::parse("kuhn(x)").is_err());
        assert!(Spec::parse("").is_err());
        let s = Spec::parse("blackjack(up=6-6)").unwrap();
        let e = s.int_list("up", &[], 3, 1, 10).unwrap_err().to_string();
        assert!(e.contains("6-6") && e.contains("3 integers"), "{e}");
        assert!(Spec::parse("kuhn(a=1)").unwrap().only(&[]).is_err());
    }

    #[test]
    fn agent_options_parse_and_name_what_is_wrong() {
        let help = "n=N and m=M";
        let o = AgentOptions::parse("uct", " n = 3 ,m=40,", &["n", "m", "threads", "seed"], help).unwrap();
        assert_eq!((o.uint("n", 10, 1, 9).unwrap(), o.uint("m", 0, 1, 99).unwrap()), (3, 40));
        assert_eq!((o.threads().unwrap(), o.seed().unwrap()), (0, 0));
        let e = o.uint("n", 10, 4, 9).unwrap_err().to_string();
        assert!(e.contains("uct n") && e.contains('3') && e.contains("an integer from 4 to 9"), "{e}");
        for bad in ["n", "k=1", "n=1,n=2"] {
            let e = AgentOptions::parse("uct", bad, &["n"], help).unwrap_err().to_string();
            assert!(e.contains("uct option") && e.contains(help), "{bad}: {e}");
        }
        let o = AgentOptions::parse("uct", "threads=1025,seed=-1", &["threads", "seed"], help).unwrap();
        assert!(o.threads().is_err() && o.seed().is_err());
    }

    #[test]
    fn options_split_by_key() {
        let (own, rest) = split_options(" net=Dir/X ,worlds=4, FROM=3,seed=1,", &["net", "from"]);
        assert_eq!((own.as_str(), rest.as_str()), ("net=Dir/X,FROM=3", "worlds=4,seed=1"));
        assert_eq!(split_options("", &["net"]), (String::new(), String::new()));
    }
}
