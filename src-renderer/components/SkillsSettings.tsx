import { useAppStore } from '../state/store';
import { loadSkills } from '../state/tool-actions';
import { LearnMore } from './LearnMore';
import { SectionLoadError } from './SectionLoadError';
import { useSectionLoad } from './useSectionLoad';

export function SkillsSettings() {
  const skills = useAppStore((state) => state.skills);
  const load = useSectionLoad(loadSkills);

  return (
    <section className="settings-subsection" aria-labelledby="skills-title">
      <h3 id="skills-title">Skills</h3>
      {load.error !== null ? (
        <SectionLoadError what="the skills" error={load.error} onRetry={load.retry} />
      ) : skills === null ? (
        <p className="muted">Loading skills…</p>
      ) : (
        <>
          <p className="field-hint">
            Markdown files in <code data-testid="skills-folder">{skills.folder}</code>: start a message with{' '}
            <code>/name</code> in the composer to run one.
          </p>
          <LearnMore about="skills">
            Each Markdown file in that folder is one skill. Brains can also run skills by themselves when one fits
            what you asked.
          </LearnMore>
          {skills.skills.length === 0 ? (
            <p className="settings-empty">No skills in that folder yet.</p>
          ) : (
            <ul className="settings-list" aria-label="Skills">
              {skills.skills.map((skill) => (
                <li key={skill.name} className="settings-list-row skill-row" data-testid="skill-item" data-skill-name={skill.name}>
                  <code className="skill-name">/{skill.name}</code>
                  <span className="skill-description">{skill.description}</span>
                </li>
              ))}
            </ul>
          )}
          {skills.problems.length === 0 ? null : (
            <div className="skill-problems" data-testid="skill-problems">
              <p className="field-label">Files that could not be read as skills</p>
              <ul>
                {skills.problems.map((problem) => (
                  <li key={problem.file} data-testid="skill-problem">
                    <code>{problem.file}</code>: {problem.problem}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </section>
  );
}
