import { disabledMatcher, skillVisibility } from "../filter/index.js";
import type { ProviderProblem, Snapshot } from "../register/types.js";
import { cmp } from "../util/compare.js";
import { parseSkillArguments, type SkillArgument } from "./arguments.js";
import type { Skill, SkillForm, SkillProblem } from "./types.js";

/** One skill as `toolplane skills --json` lists it. */
export interface SkillListing {
  name: string;
  description: string;
  root: string;
  rank: number;
  form: SkillForm;
  path: string;
  modelVisible: boolean;
  userVisible: boolean;
  provider: string;
  disabled: boolean;
  /** The arguments its frontmatter declares (a prompt's arguments); absent when it declares none. */
  arguments?: SkillArgument[];
}

export interface ShadowedSkill {
  name: string;
  path: string;
  root: string;
  rank: number;
  /** The skill that won the name. */
  by: { path: string; root: string; rank: number };
}

/** The `skills` JSON shape of the CLI contract, plus who lost a name conflict. */
export interface SkillsView {
  skills: SkillListing[];
  shadowed: ShadowedSkill[];
  problems: SkillProblem[];
  incomplete: boolean;
  /** Skill roots whose read failed (rejected, timed out): the registry's problems of this read. */
  providerProblems: ProviderProblem[];
}

/** Builds the view from a registry snapshot and the discovery problems; sorted, deterministic. */
export function skillsView(
  snapshot: Snapshot<Skill>,
  problems: readonly SkillProblem[],
  disabledPatterns: readonly string[] = [],
  losers: ReadonlyMap<string, Skill[]> = new Map(),
): SkillsView {
  const isDisabled = disabledMatcher(disabledPatterns);
  const skills = snapshot.entries.map(({ entry: s, provider }) => {
    const disabled = isDisabled(s.name);
    const v = skillVisibility(s, disabled);
    return {
      name: s.name,
      description: s.description,
      root: s.root,
      rank: s.rank,
      form: s.form,
      path: s.path,
      modelVisible: v.modelVisible,
      userVisible: v.userVisible,
      provider,
      disabled,
      ...argumentsOf(s),
    };
  });
  skills.sort((a, b) => cmp(a.name, b.name));
  const shadowed: ShadowedSkill[] = [];
  for (const s of snapshot.shadowed) {
    const winner = snapshot.get(s.name)?.entry;
    for (const loser of losers.get(s.provider)?.filter((l) => l.name === s.name) ?? []) {
      shadowed.push({
        name: s.name,
        path: loser.path,
        root: loser.root,
        rank: loser.rank,
        by: winner
          ? { path: winner.path, root: winner.root, rank: winner.rank }
          : { path: "", root: "", rank: 0 },
      });
    }
  }
  shadowed.sort((a, b) => cmp(a.name, b.name) || a.rank - b.rank || cmp(a.path, b.path));
  const sortedProblems = [...problems]
    .map((p) => ({ path: p.path, errors: [...p.errors] }))
    .sort((a, b) => cmp(a.path, b.path));
  return {
    skills,
    shadowed,
    problems: sortedProblems,
    incomplete: snapshot.incomplete,
    providerProblems: [...snapshot.problems],
  };
}

function argumentsOf(s: Skill): { arguments?: SkillArgument[] } {
  const parsed = parseSkillArguments(s.frontmatter.arguments);
  return parsed.ok && parsed.args.length > 0 ? { arguments: parsed.args } : {};
}
