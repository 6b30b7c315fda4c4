import { defineEvents, changedPayload, emptyPayload, projectRecords } from '../../events.js';

// The events of departments (src/events.ts).

const departmentRecord = projectRecords('Department', 'department');

export const departmentsEvents = defineEvents({
  'department.create': { payload: emptyPayload, webhook: { description: 'A department was created.', record: departmentRecord } },
  'department.update': { payload: changedPayload, webhook: { description: 'A department changed.', record: departmentRecord } },
  'department.delete': { payload: emptyPayload, webhook: { description: 'A department was deleted (payload: its identifiers).', record: departmentRecord }, audit: true },
});

type DepartmentsEvents = typeof departmentsEvents;
declare module '../../events.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface DomainEventRegistry extends DepartmentsEvents {}
}
