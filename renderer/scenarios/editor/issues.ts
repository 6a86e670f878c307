/** One validation issue as the editor shows it: at its field (path) and its line. */
export interface EditorIssue {
  path: string;
  message: string;
  line?: number;
  column?: number;
}
