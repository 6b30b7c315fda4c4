import { adminSections, navigate, paths, sections as sectionSlugs, type Section } from './router.js';
import { isAdmin, useProjectRole } from './role.js';
import { SlaPoliciesSection } from './sla.js';
import { AuditSection } from './Audit.js';
import { RetentionSection } from './Privacy.js';
import { BotsSection } from './manage/Bots.js';
import { CannedSection } from './manage/CannedResponses.js';
import { DepartmentsSection } from './manage/Departments.js';
import { KbSection } from './manage/KnowledgeBases.js';
import { TeamSection } from './manage/Teammates.js';
import { WebhooksSection } from './manage/Webhooks.js';

// The project's set-up, one tab per section: teammates and invitations, departments and groups,
// bots and intents, knowledge bases (indexing live), webhooks (delivery log, redeliver) and canned
// responses (one file each in manage/), SLA policies (sla.tsx); for admins, the retention policy
// (Privacy.tsx) and the audit log (Audit.tsx).

const sectionNames: Record<Section, string> = {
  team: 'Team',
  departments: 'Departments',
  bots: 'Bots',
  'knowledge-bases': 'Knowledge bases',
  webhooks: 'Webhooks',
  'canned-responses': 'Canned responses',
  'sla-policies': 'SLA policies',
  privacy: 'Privacy and retention',
  audit: 'Audit log',
};

export function Manage({ projectId, section }: { projectId: string; section: Section }) {
  // The admins' tabs are not offered to agents (the API would refuse them anyway).
  const role = useProjectRole(projectId);
  const shown = sectionSlugs.filter((s) => isAdmin(role) || !adminSections.includes(s));
  return (
    <main className="manage">
      <div role="tablist" aria-label="Project settings" className="tabs">
        {shown.map((s) => (
          <button key={s} type="button" role="tab" aria-selected={section === s} onClick={() => navigate(paths.settings(projectId, s))}>
            {sectionNames[s]}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={sectionNames[section]} className="panel">
        <p className="hint">
          Project id: <code>{projectId}</code> · embed the widget with{' '}
          <code>{`<script src="${location.origin}/widget.js" data-project-id="${projectId}" defer></script>`}</code>
        </p>
        {section === 'team' && <TeamSection projectId={projectId} />}
        {section === 'departments' && <DepartmentsSection projectId={projectId} />}
        {section === 'bots' && <BotsSection projectId={projectId} />}
        {section === 'knowledge-bases' && <KbSection projectId={projectId} />}
        {section === 'webhooks' && <WebhooksSection projectId={projectId} />}
        {section === 'canned-responses' && <CannedSection projectId={projectId} />}
        {section === 'sla-policies' && <SlaPoliciesSection projectId={projectId} />}
        {section === 'privacy' && role !== null && (isAdmin(role) ? <RetentionSection projectId={projectId} /> : <p role="alert" className="error">Privacy and retention are for the project's admins and owner.</p>)}
        {section === 'audit' && role !== null && (isAdmin(role) ? <AuditSection projectId={projectId} /> : <p role="alert" className="error">The audit log is for the project's admins and owner.</p>)}
      </div>
    </main>
  );
}
