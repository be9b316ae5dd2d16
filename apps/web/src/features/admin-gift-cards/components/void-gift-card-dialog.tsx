import { useId, useState, type FormEvent } from 'react';
import type { StaffGiftCard } from '@cinema/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorText } from '../../../lib/api-client';
import { useFormatMoney } from '../../../lib/format';
import { FormMessages } from '../../../components/ui/form-messages';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { useVoidGiftCard } from '../api/gift-cards';

/**
 * "Void card…" and the modal that asks for a reason and a second yes before the balance goes to zero (the server
 * writes the audit entry with the reason).
 */
export function VoidGiftCardDialog({ card, onVoided }: { card: StaffGiftCard; onVoided: () => void }) {
  const { t } = useTranslation('admin');
  const formatMoney = useFormatMoney();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const voidCard = useVoidGiftCard(card.code);
  const id = useId();

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    if (!reason.trim()) {
      setError(t('giftCards.reasonNeeded'));
      return;
    }
    setError(null);
    try {
      await voidCard.mutateAsync(reason.trim());
      setOpen(false);
      setReason('');
      onVoided();
    } catch (err) {
      setError(errorText(err, t('giftCards.voidFailed')));
    }
  }

  return (
    <>
      <button type="button" className="btn-danger" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {t('giftCards.void')}
      </button>
      {open && (
        <ModalDialog
          labelledBy={`${id}-title`}
          describedBy={`${id}-what`}
          widthClass="w-[min(28rem,calc(100vw-1rem))]"
          onClose={() => {
            setOpen(false);
            setError(null);
          }}
        >
          <form onSubmit={onSubmit} className="space-y-3" noValidate>
            <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
              {t('giftCards.voidTitle', { code: card.code })}
            </h2>
            <p id={`${id}-what`}>
              {card.balanceCents > 0
                ? t('giftCards.voidWhat', { balance: formatMoney(card.balanceCents, card.currency) })
                : t('giftCards.voidEmpty')}
            </p>
            <label className="field">
              <span className="field-label">{t('giftCards.reason')}</span>
              <input
                className="input"
                name="reason"
                maxLength={200}
                autoComplete="off"
                required
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
            </label>
            <FormMessages error={error} />
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-secondary" onClick={() => setOpen(false)}>
                {t('giftCards.keep')}
              </button>
              <button type="submit" className="btn-danger" disabled={voidCard.isPending}>
                {voidCard.isPending ? t('giftCards.voiding') : t('giftCards.confirmVoid')}
              </button>
            </div>
          </form>
        </ModalDialog>
      )}
    </>
  );
}
