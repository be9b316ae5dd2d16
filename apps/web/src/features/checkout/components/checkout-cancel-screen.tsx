import { Link } from 'react-router';

/** /checkout/cancel: where the customer lands after backing out of the payment page. */
export function CheckoutCancelScreen() {
  return (
    <section className="mx-auto max-w-2xl">
      <h1 className="page-title">
        <span className="block">Payment Cancelled.</span>{' '}
        <span className="mt-2 block text-lg font-normal text-slate-200">
          Your seat holds may expire soon.
        </span>
      </h1>
      <p className="muted">Nothing was charged. Pick your seats again from the movie’s showtimes.</p>
      <p className="mt-6">
        <Link to="/movies" className="btn-primary">
          Movies
        </Link>
      </p>
    </section>
  );
}
