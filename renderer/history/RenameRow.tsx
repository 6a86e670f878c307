import { RUN_NAME_MAX } from '../../contract/api';
import { InlineEdit } from './InlineEdit';
import { useAnnotate } from './RunAnnotation';

/** A History row's name, edited in place; the list reloads once it is saved. */
export function RenameRow({ runId, name, done, renamed }: { runId: number; name: string | null; done: () => void; renamed: () => void }) {
  const annotate = useAnnotate(runId, renamed);
  return <InlineEdit label={`name of run ${runId}`} initial={name ?? ''} maxLength={RUN_NAME_MAX} save={(text) => annotate({ name: text })} done={done} testId="row-name-input" />;
}
