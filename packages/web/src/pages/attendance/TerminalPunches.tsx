import { PunchesList } from './PunchesList.tsx';

/** A terminal's drawer tab: its recent punches, newest first. */
export function TerminalPunches({ terminalId }: { terminalId: number }) {
  return <PunchesList terminalId={terminalId} />;
}
