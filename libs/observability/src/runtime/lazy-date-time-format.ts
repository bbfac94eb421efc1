type DateTimeFormatConstructor = typeof Intl.DateTimeFormat;

// perf-machinery: lazy-date-format (docs/performance-machinery.md)
/**
 * Runs `load` (an import) while `new Intl.DateTimeFormat(...)` returns a formatter that is built on its
 * first use, then puts the real constructor back.
 *
 * Why: the first DateTimeFormat a process builds resolves its locale, calendar and time zone from the
 * ICU data inside the node binary, which maps about 4.7 MiB of that data into the process (resident,
 * counted in its RSS). @nestjs/common builds two (for its ConsoleLogger and its Logger) when it is first
 * imported, though our processes log through pino and Nest's loggers only print when Nest itself warns. Loading
 * @nestjs/common through this keeps those pages out until a timestamp is actually formatted.
 */
export function loadWithLazyDateTimeFormat<T>(load: () => T): T {
  const RealDateTimeFormat = Intl.DateTimeFormat;
  const LazyDateTimeFormat = function (
    locales?: Intl.LocalesArgument,
    options?: Intl.DateTimeFormatOptions,
  ): Intl.DateTimeFormat {
    return lazyDateTimeFormat(RealDateTimeFormat, locales, options);
  };
  LazyDateTimeFormat.prototype = RealDateTimeFormat.prototype;
  LazyDateTimeFormat.supportedLocalesOf = RealDateTimeFormat.supportedLocalesOf;
  Intl.DateTimeFormat = LazyDateTimeFormat as unknown as DateTimeFormatConstructor;
  try {
    return load();
  } finally {
    Intl.DateTimeFormat = RealDateTimeFormat;
  }
}

/** A formatter whose real instance is built the first time any of its members is read. */
function lazyDateTimeFormat(
  RealDateTimeFormat: DateTimeFormatConstructor,
  locales: Intl.LocalesArgument,
  options: Intl.DateTimeFormatOptions | undefined,
): Intl.DateTimeFormat {
  let formatter: Intl.DateTimeFormat | undefined;
  const real = (): Intl.DateTimeFormat => (formatter ??= new RealDateTimeFormat(locales, options));
  return new Proxy(Object.create(RealDateTimeFormat.prototype) as Intl.DateTimeFormat, {
    get: (_placeholder, property) => {
      const value: unknown = Reflect.get(real(), property);
      return typeof value === 'function' ? value.bind(formatter) : value;
    },
  });
}
