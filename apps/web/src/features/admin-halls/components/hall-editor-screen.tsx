import { useTranslation } from '../../../lib/i18n';
import { Link, useLocation, useParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { useHallLayout } from '../api/get-hall-layout';
import { HallEditor } from './hall-editor';

/** /admin/halls/new and /admin/halls/{id}: the layout editor, for a new hall or a saved one. */
export function HallEditorScreen() {
  const { t } = useTranslation('admin');
  const { id } = useParams();
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/halls">{t('halls.back')}</Link>
      </p>
      {id ? <EditHall id={id} /> : <NewHall />}
    </section>
  );
}

function NewHall() {
  const { t } = useTranslation('admin');
  return (
    <>
      <h1 className="page-title">{t('halls.newHall')}</h1>
      <HallEditor />
    </>
  );
}

function EditHall({ id }: { id: string }) {
  const { t } = useTranslation('admin');
  const hall = useHallLayout(id);
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice ?? null;
  return (
    <>
      <h1 className="page-title">
        {hall.data ? t('halls.layoutOf', { name: hall.data.name }) : t('halls.layoutTitle')}
      </h1>
      <QueryStatus query={hall} failure={t('halls.failed')} />
      {hall.data && <HallEditor key={id} hall={hall.data} initialNotice={notice} />}
    </>
  );
}
