// perf-machinery: series-cache (docs/performance-machinery.md)
/**
 * The labelled series of a metric by label set, built once: prom-client hashes the label object on
 * every `inc`/`observe` call otherwise, which showed in the profile of every request. Meant for label
 * sets bounded by configuration (route patterns, channels), not by traffic.
 */
export class SeriesCache<Series> {
  private readonly byId = new Map<string, Series>();

  /** The series for `id` (a string naming the label set), built with `create` the first time. */
  get(id: string, create: () => Series): Series {
    let series = this.byId.get(id);
    if (series === undefined) {
      series = create();
      this.byId.set(id, series);
    }
    return series;
  }
}
