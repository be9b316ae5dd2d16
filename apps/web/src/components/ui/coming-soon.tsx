export function ComingSoon({ title }: { title: string }) {
  return (
    <section className="card">
      <h1 className="page-title">{title}</h1>
      <p className="muted">Coming soon.</p>
    </section>
  );
}
