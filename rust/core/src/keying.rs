//! Keyings: which information sets of a compiled tree share one key (and so one strategy).
//!
//! A game's own keys give each information set its own entry. A coarser keying — an
//! abstraction, or imperfect recall such as Leduc with the suits merged — maps several of the
//! tree's information sets to one key; solvers then keep one regret and policy entry per key,
//! while best responses are still computed in the original game.

use crate::error::{Error, Result};
use crate::key_list::KeyList;
use crate::tree::PublicTree;
use std::collections::HashMap;

/// A grouping of a tree's information sets under keys.
#[derive(Clone, Debug)]
pub struct Keying {
    /// The keys, one per group, in order of first appearance.
    pub keys: KeyList,
    /// The group of each of the tree's information sets.
    pub group: Vec<u32>,
    /// Offset of each group's first action in group-indexed action arrays.
    pub offset: Vec<u32>,
    /// Total number of (group, action) entries.
    pub total_actions: usize,
    /// Members of each group (information-set ids), CSR: `members[member_start[g]..member_start[g + 1]]`.
    pub members: Vec<u32>,
    /// Start of each group's members, plus a final end.
    pub member_start: Vec<u32>,
}

impl Keying {
    /// Groups `tree`'s information sets by `keys` (one per information set). Information sets
    /// sharing a key must have the same player and the same legal actions.
    pub fn new(tree: &PublicTree, keys: &KeyList) -> Result<Keying> {
        let n = tree.infosets.len();
        if keys.len() != n {
            return Err(Error::invalid("keys", keys.len(), format!("one key per information set ({n})")));
        }
        let mut index: HashMap<&str, u32> = HashMap::new();
        let mut unique = KeyList::new();
        let mut group = Vec::with_capacity(n);
        let mut first_member: Vec<usize> = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            let next = index.len() as u32;
            let g = *index.entry(k).or_insert(next);
            if g == next {
                first_member.push(i);
                unique.push(k);
            } else {
                let j = first_member[g as usize];
                if tree.infosets.player[i] != tree.infosets.player[j]
                    || tree.infoset_actions(i) != tree.infoset_actions(j)
                {
                    return Err(Error::invalid(
                        format!("key {k:?}"),
                        format!("{:?} and {:?}", &tree.infosets.keys[j], &tree.infosets.keys[i]),
                        "information sets with one key must have the same player and legal actions",
                    ));
                }
            }
            group.push(g);
        }
        let groups = first_member.len();
        let mut offset = Vec::with_capacity(groups);
        let mut total = 0usize;
        for &m in &first_member {
            offset.push(total as u32);
            total += tree.infosets.num_actions(m);
        }
        let mut counts = vec![0u32; groups + 1];
        for &g in &group {
            counts[g as usize + 1] += 1;
        }
        for g in 0..groups {
            counts[g + 1] += counts[g];
        }
        let mut fill = counts.clone();
        let mut members = vec![0u32; n];
        for (i, &g) in group.iter().enumerate() {
            members[fill[g as usize] as usize] = i as u32;
            fill[g as usize] += 1;
        }
        Ok(Keying { keys: unique, group, offset, total_actions: total, members, member_start: counts })
    }

    /// The tree's own keys.
    pub fn of_tree(tree: &PublicTree) -> Result<Keying> {
        Keying::new(tree, &tree.infosets.keys)
    }

    /// Number of groups (keys).
    pub fn len(&self) -> usize {
        self.keys.len()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
    /// Whether every group has exactly one member (nothing is shared).
    pub fn is_identity(&self) -> bool {
        self.keys.len() == self.group.len()
    }
    /// Members of group `g`.
    pub fn members_of(&self, g: usize) -> &[u32] {
        &self.members[self.member_start[g] as usize..self.member_start[g + 1] as usize]
    }
    /// Number of actions of group `g`.
    pub fn num_actions(&self, g: usize) -> usize {
        let end = self.offset.get(g + 1).map_or(self.total_actions, |&o| o as usize);
        end - self.offset[g] as usize
    }

    /// Spreads group-indexed action values onto the tree's information sets.
    pub fn spread(&self, tree: &PublicTree, per_group: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; tree.infosets.total_actions];
        for (i, &g) in self.group.iter().enumerate() {
            let (src, dst) = (self.offset[g as usize] as usize, tree.infosets.offset[i] as usize);
            let na = tree.infosets.num_actions(i);
            out[dst..dst + na].copy_from_slice(&per_group[src..src + na]);
        }
        out
    }

    /// Sums information-set-indexed action values into their groups (members in id order).
    pub fn gather(&self, tree: &PublicTree, per_infoset: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.total_actions];
        for g in 0..self.len() {
            let dst = self.offset[g] as usize;
            for &i in self.members_of(g) {
                let src = tree.infosets.offset[i as usize] as usize;
                for a in 0..self.num_actions(g) {
                    out[dst + a] += per_infoset[src + a];
                }
            }
        }
        out
    }
}
