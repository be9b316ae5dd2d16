import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { minorToText, toMinor } from '@cinema/contract/constants';
import type { AdminMenu, BookingFee, Fees, Taxes, TaxMode, TicketType } from '@cinema/contract';
import { FormMessages } from '../../../components/ui/form-messages';
import { QueryStatus } from '../../../components/ui/query-status';
import { TextField } from '../../../components/ui/text-field';
import { errorText } from '../../../lib/api-client';
import { moneyFieldProps } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useCinemaCurrency } from '../../../lib/settings';
import { usePageHeading } from '../../../lib/use-page-heading';
import {
  useFees,
  useMenuForTaxes,
  useSaveFees,
  useSaveTaxes,
  useTaxes,
  useTicketTypesForFees,
} from '../api/taxes';

/** A rate's percentage, to the hundredth. */
const PERCENT_FIELD = {
  type: 'number',
  required: true,
  min: '0',
  max: '100',
  step: '0.01',
  inputMode: 'decimal',
} as const;
const MAX_FEE_CENTS = 100_000_000;

/** A precise food and drink rate being edited: `category:<id>` or `product:<id>`, and its percentage. */
interface ScopedRate {
  scope: string;
  percent: string;
}

function TaxRatesForm({ taxes, menu }: { taxes: Taxes; menu: AdminMenu }) {
  const { t } = useTranslation('admin');
  const save = useSaveTaxes();
  const general = (kind: 'TICKET' | 'PRODUCT' | 'FEE') =>
    String(taxes.rates.find((r) => r.kind === kind && !r.productId && !r.category)?.ratePercent ?? 0);
  const [mode, setMode] = useState<TaxMode>(taxes.mode);
  const [ticket, setTicket] = useState(general('TICKET'));
  const [product, setProduct] = useState(general('PRODUCT'));
  const [fee, setFee] = useState(general('FEE'));
  const [scoped, setScoped] = useState<ScopedRate[]>(
    taxes.rates.flatMap((r) =>
      r.category
        ? [{ scope: `category:${r.category}`, percent: String(r.ratePercent) }]
        : r.productId
          ? [{ scope: `product:${r.productId}`, percent: String(r.ratePercent) }]
          : [],
    ),
  );
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const setRate = (i: number, change: Partial<ScopedRate>) =>
    setScoped(scoped.map((s, j) => (j === i ? { ...s, ...change } : s)));
  const scopeName = (scope: string) => {
    const [kind, id] = scope.split(':');
    return kind === 'category'
      ? (menu.categories.find((c) => c.id === id)?.name ?? '')
      : (menu.products.find((p) => p.id === id)?.name ?? '');
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    setError(null);
    save.mutate(
      {
        mode,
        rates: [
          { kind: 'TICKET', ratePercent: Number(ticket) },
          { kind: 'PRODUCT', ratePercent: Number(product) },
          { kind: 'FEE', ratePercent: Number(fee) },
          ...scoped.map((s) => {
            const [kind, id] = s.scope.split(':');
            return {
              kind: 'PRODUCT' as const,
              ...(kind === 'category' ? { category: id } : { productId: id }),
              ratePercent: Number(s.percent),
            };
          }),
        ],
      },
      {
        onSuccess: () => setNotice(t('taxes.saved')),
        onError: (err) => setError(errorText(err, t('taxes.saveFailed'))),
      },
    );
  };
  const taken = new Set(scoped.map((s) => s.scope));
  const firstFree = [
    ...menu.categories.map((c) => `category:${c.id}`),
    ...menu.products.map((p) => `product:${p.id}`),
  ].find((s) => !taken.has(s));

  return (
    <form className="card space-y-4" onSubmit={submit} aria-labelledby="tax-rates-heading">
      <h2 id="tax-rates-heading" className="text-lg font-semibold text-white">
        {t('taxes.ratesHeading')}
      </h2>
      <fieldset className="space-y-2">
        <legend className="field-label">{t('taxes.mode')}</legend>
        {(['inclusive', 'exclusive'] as const).map((m) => (
          <label key={m} className="flex items-start gap-2">
            <input type="radio" name="tax-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            <span>
              {t(`taxes.modes.${m}`)}
              <span className="block text-xs text-muted">{t(`taxes.modeHints.${m}`)}</span>
            </span>
          </label>
        ))}
        {taxes.modeFrom === 'environment' && (
          <p className="muted text-xs">{t('taxes.modeFromEnvironment')}</p>
        )}
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField label={t('taxes.tickets')} value={ticket} onValueChange={setTicket} {...PERCENT_FIELD} />
        <TextField
          label={t('taxes.products')}
          value={product}
          onValueChange={setProduct}
          {...PERCENT_FIELD}
        />
        <TextField label={t('taxes.fees')} value={fee} onValueChange={setFee} {...PERCENT_FIELD} />
      </div>
      <div className="space-y-2">
        <h3 className="font-semibold text-white">{t('taxes.preciseHeading')}</h3>
        <p className="muted text-sm">{t('taxes.preciseHint')}</p>
        {scoped.length > 0 && (
          <ul className="space-y-2" aria-label={t('taxes.preciseHeading')}>
            {scoped.map((s, i) => (
              <li key={i} className="flex flex-wrap items-end gap-2">
                <label className="field min-w-0 flex-1">
                  <span className="field-label">{t('taxes.appliesTo')}</span>
                  <select
                    className="input"
                    value={s.scope}
                    onChange={(e) => setRate(i, { scope: e.target.value })}
                  >
                    <optgroup label={t('taxes.categories')}>
                      {menu.categories.map((c) => (
                        <option key={c.id} value={`category:${c.id}`}>
                          {c.name}
                        </option>
                      ))}
                    </optgroup>
                    <optgroup label={t('taxes.productsGroup')}>
                      {menu.products.map((p) => (
                        <option key={p.id} value={`product:${p.id}`}>
                          {p.name}
                        </option>
                      ))}
                    </optgroup>
                  </select>
                </label>
                <label className="field w-28">
                  <span className="field-label">{t('taxes.ratePercent')}</span>
                  <input
                    className="input"
                    {...PERCENT_FIELD}
                    value={s.percent}
                    onChange={(e) => setRate(i, { percent: e.target.value })}
                  />
                </label>
                <button
                  type="button"
                  className="btn-secondary"
                  aria-label={t('taxes.removeNamed', { name: scopeName(s.scope) })}
                  onClick={() => setScoped(scoped.filter((_, j) => j !== i))}
                >
                  {t('taxes.remove')}
                </button>
              </li>
            ))}
          </ul>
        )}
        {firstFree && (
          <button
            type="button"
            className="btn-secondary"
            onClick={() => setScoped([...scoped, { scope: firstFree, percent: product }])}
          >
            {t('taxes.addPrecise')}
          </button>
        )}
      </div>
      <FormMessages error={error} notice={notice} />
      <button type="submit" className="btn-primary" disabled={save.isPending}>
        {t('taxes.save')}
      </button>
    </form>
  );
}

interface FeeDraft {
  perTicket: string;
  perOrder: string;
  exempt: string[];
  refundable: boolean;
}

const draftOf = (fee: BookingFee, currency: string): FeeDraft => ({
  perTicket: minorToText(fee.perTicketCents, currency),
  perOrder: minorToText(fee.perOrderCents, currency),
  exempt: fee.exemptTicketTypeIds,
  refundable: fee.refundable,
});

/** One channel's fee: per ticket, per order, the ticket types it leaves out, refundable or not. */
function FeeFields({
  channel,
  draft,
  types,
  onChange,
}: {
  channel: 'online' | 'counter';
  draft: FeeDraft;
  types: TicketType[];
  onChange: (draft: FeeDraft) => void;
}) {
  const { t } = useTranslation('admin');
  const currency = useCinemaCurrency();
  const money = {
    type: 'number',
    required: true,
    inputMode: 'decimal',
    ...moneyFieldProps(MAX_FEE_CENTS, currency),
    min: '0',
  } as const;
  return (
    <fieldset className="space-y-3 rounded border border-line/60 p-3">
      <legend className="px-1 font-semibold text-white">{t(`taxes.channels.${channel}`)}</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label={t('taxes.perTicket')}
          value={draft.perTicket}
          onValueChange={(perTicket) => onChange({ ...draft, perTicket })}
          {...money}
        />
        <TextField
          label={t('taxes.perOrder')}
          value={draft.perOrder}
          onValueChange={(perOrder) => onChange({ ...draft, perOrder })}
          {...money}
        />
      </div>
      {types.length > 0 && (
        <fieldset>
          <legend className="field-label">{t('taxes.exempt')}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {types.map((type) => (
              <label key={type.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={draft.exempt.includes(type.id)}
                  onChange={(e) =>
                    onChange({
                      ...draft,
                      exempt: e.target.checked
                        ? [...draft.exempt, type.id]
                        : draft.exempt.filter((id) => id !== type.id),
                    })
                  }
                />
                {type.name}
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          checked={draft.refundable}
          onChange={(e) => onChange({ ...draft, refundable: e.target.checked })}
        />
        {t('taxes.refundable')}
      </label>
    </fieldset>
  );
}

function FeesForm({ fees, types }: { fees: Fees; types: TicketType[] }) {
  const { t } = useTranslation('admin');
  const currency = useCinemaCurrency();
  const save = useSaveFees();
  const [online, setOnline] = useState(() => draftOf(fees.online, currency));
  const [counter, setCounter] = useState(() => draftOf(fees.counter, currency));
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const feeOf = (d: FeeDraft): BookingFee | null => {
    const perTicketCents = toMinor(d.perTicket, currency);
    const perOrderCents = toMinor(d.perOrder, currency);
    if (perTicketCents === null || perOrderCents === null) return null;
    return { perTicketCents, perOrderCents, exemptTicketTypeIds: d.exempt, refundable: d.refundable };
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setNotice(null);
    setError(null);
    const body = { online: feeOf(online), counter: feeOf(counter) };
    if (!body.online || !body.counter) {
      setError(t('taxes.badAmount'));
      return;
    }
    save.mutate(body as Fees, {
      onSuccess: () => setNotice(t('taxes.feesSaved')),
      onError: (err) => setError(errorText(err, t('taxes.saveFailed'))),
    });
  };
  return (
    <form className="card space-y-4" onSubmit={submit} aria-labelledby="fees-heading">
      <h2 id="fees-heading" className="text-lg font-semibold text-white">
        {t('taxes.feesHeading')}
      </h2>
      <p className="muted text-sm">{t('taxes.feesHint')}</p>
      <FeeFields channel="online" draft={online} types={types} onChange={setOnline} />
      <FeeFields channel="counter" draft={counter} types={types} onChange={setCounter} />
      <FormMessages error={error} notice={notice} />
      <button type="submit" className="btn-primary" disabled={save.isPending}>
        {t('taxes.saveFees')}
      </button>
    </form>
  );
}

/** /admin/taxes: the tax mode and rates, and the booking fees (DESIGN §7.4). */
export function TaxesScreen() {
  const { t } = useTranslation('admin');
  const heading = usePageHeading(t('taxes.title'));
  const taxes = useTaxes();
  const fees = useFees();
  const menu = useMenuForTaxes();
  const types = useTicketTypesForFees();
  return (
    <section className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 ref={heading} tabIndex={-1} className="page-title mb-0 outline-none">
          {t('taxes.title')}
        </h1>
        <Link to="/admin" className="text-sm">
          {t('common.backToAdmin')}
        </Link>
      </div>
      <p className="muted">{t('taxes.intro')}</p>
      <QueryStatus query={taxes} failure={t('taxes.loadFailed')} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        {/* Each form starts from what the server has; a save keeps it as typed. */}
        {taxes.data && menu.data && <TaxRatesForm taxes={taxes.data} menu={menu.data} />}
        {fees.data && types.data && <FeesForm fees={fees.data} types={types.data} />}
      </div>
    </section>
  );
}
