import { Link, useLocation, useParams } from 'react-router';
import { QueryStatus } from '../../../components/ui/query-status';
import { useHallLayout } from '../api/get-hall-layout';
import { HallEditor } from './hall-editor';

/** /admin/halls/new and /admin/halls/{id}: the layout editor, for a new hall or a saved one. */
export function HallEditorScreen() {
  const { id } = useParams();
  return (
    <section>
      <p className="mb-2 text-sm">
        <Link to="/admin/halls">← Halls</Link>
      </p>
      {id ? <EditHall id={id} /> : <NewHall />}
    </section>
  );
}

function NewHall() {
  return (
    <>
      <h1 className="page-title">New hall</h1>
      <HallEditor />
    </>
  );
}

function EditHall({ id }: { id: string }) {
  const hall = useHallLayout(id);
  const location = useLocation();
  const notice = (location.state as { notice?: string } | null)?.notice ?? null;
  return (
    <>
      <h1 className="page-title">{hall.data ? `Hall layout: ${hall.data.name}` : 'Hall layout'}</h1>
      <QueryStatus query={hall} failure="Failed to load the hall" />
      {hall.data && <HallEditor key={id} hall={hall.data} initialNotice={notice} />}
    </>
  );
}
