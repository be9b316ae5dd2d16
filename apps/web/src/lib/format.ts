/** A timestamp in the viewer's locale and time zone. */
export const formatDateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' });
