import { useTranslation } from '../../../lib/i18n';
import { seatLook, SeatMark } from '../../../components/seat-map/seat-face';
import type { Tool } from '../lib/layout-draft';

const TOOLS: Tool[] = ['STANDARD', 'PREMIUM', 'SOFA', 'WHEELCHAIR', 'COMPANION', 'GAP', 'BLOCK'];

function Sample({ tool }: { tool: Tool }) {
  if (tool === 'GAP')
    return <span className="block h-7 w-7 rounded-sm border border-dashed border-slate-400" />;
  if (tool === 'BLOCK') {
    return (
      <span className={seatLook('STANDARD', 'BLOCKED')}>
        <SeatMark type="STANDARD" view="BLOCKED" />
      </span>
    );
  }
  if (tool === 'SOFA') {
    return (
      <span className="flex gap-1.5">
        <span className={seatLook('SOFA', 'AVAILABLE', 'left')} />
        <span className={seatLook('SOFA', 'AVAILABLE', 'right')} />
      </span>
    );
  }
  return (
    <span className={seatLook(tool, 'AVAILABLE')}>
      <SeatMark type={tool} view="AVAILABLE" number={1} />
    </span>
  );
}

/** The tools the grid paints with, as radio buttons (arrow keys choose among them). */
export function ToolPicker({ tool, onChange }: { tool: Tool; onChange: (tool: Tool) => void }) {
  const { t } = useTranslation('admin');
  return (
    <fieldset>
      <legend className="field-label mb-2 text-sm">{t('hallEditor.paintWith')}</legend>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap">
        {TOOLS.map((value) => (
          <label
            key={value}
            className="flex cursor-pointer items-center gap-2 rounded-lg border border-line bg-panel-2 px-2.5 py-1.5 text-sm text-slate-200 has-checked:border-gold has-checked:bg-line has-checked:text-white has-checked:ring-1 has-checked:ring-gold has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-gold"
          >
            <input
              type="radio"
              name="tool"
              value={value}
              className="sr-only"
              checked={tool === value}
              onChange={() => onChange(value)}
            />
            <span aria-hidden className="pointer-events-none flex">
              <Sample tool={value} />
            </span>
            {t(`hallEditor.tools.${value}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
