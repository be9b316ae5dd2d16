/**
 * Sets `key` as the newest entry of a Map used as a bounded cache (a Map keeps insertion order), then drops the
 * oldest entry if the Map holds more than `max`.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key); // re-inserted last, even if it was there
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
