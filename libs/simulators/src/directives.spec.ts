import { findBodyDirectives, mergeDirectives, parseDirectives } from './directives';
import { splitDirectivePrefix } from './directive-prefix.util';

describe('directives', () => {
  it('parses every directive of the grammar', () => {
    expect(
      parseDirectives(
        'latency=5;chunks=4;interval=10;usage=12/34;error=overload;status=500;retry_after=7;error_after=2;' +
          'block=output;finish=length;text=Hello%20there%3B%20friend;tool=lookup;thoughts=9;hang=250;' +
          'code=50430;polls=2;task_ms=300;url_ttl=0;images=3',
      ),
    ).toEqual({
      latencyMs: 5,
      chunks: 4,
      intervalMs: 10,
      usage: { input: 12, output: 34 },
      error: 'overload',
      status: 500,
      retryAfterSeconds: 7,
      errorAfter: 2,
      block: 'output',
      finish: 'length',
      text: 'Hello there; friend',
      tool: 'lookup',
      thoughts: 9,
      hangMs: 250,
      code: '50430',
      polls: 2,
      taskMs: 300,
      urlTtlSeconds: 0,
      images: 3,
    });
  });

  it('accepts commas as separators and ignores unknown keys and malformed values', () => {
    expect(
      parseDirectives(
        ' chunks=2 , colour=blue, usage=1/x, error=meltdown, interval=-3, latency=1, images=0, polls=x',
      ),
    ).toEqual({
      chunks: 2,
      latencyMs: 1,
    });
  });

  it('parses the compat video directives', () => {
    expect(
      parseDirectives(
        'placement=output.url;words=pending+running++error;result_host=10.0.0.7:8080;expired_links=1',
      ),
    ).toEqual({
      placement: 'output.url',
      statusWords: { queued: 'pending', processing: 'running', failed: 'error' },
      resultHost: '10.0.0.7:8080',
      expiredLinks: 1,
    });
    expect(parseDirectives('placement=body;words=+;result_host=a/b')).toEqual({});
  });

  it('lets later sources override earlier ones field by field', () => {
    const merged = mergeDirectives(
      parseDirectives('error=overload;chunks=5'),
      undefined,
      parseDirectives('error=rate_limit;retry_after=3'),
    );
    expect(merged).toEqual({ error: 'rate_limit', chunks: 5, retryAfterSeconds: 3 });
  });

  it('finds the [[sim …]] marker in a raw JSON body', () => {
    const body = JSON.stringify({
      messages: [{ role: 'user', content: 'Hi [[sim chunks=2, text=a%2Cb]] there' }],
    });
    expect(findBodyDirectives(body)).toEqual({ chunks: 2, text: 'a,b' });
    expect(findBodyDirectives('{"contents":[]}')).toBeUndefined();
    expect(findBodyDirectives('[[sim chunks=2')).toBeUndefined();
  });

  it('splits the /@ base-URL prefix from the routed path', () => {
    expect(splitDirectivePrefix('/@error=overload;status=500/v1beta/models?pageSize=2')).toEqual({
      url: '/v1beta/models?pageSize=2',
      directives: 'error=overload;status=500',
    });
    expect(splitDirectivePrefix('/@latency=5?x=1')).toEqual({ url: '/?x=1', directives: 'latency=5' });
    expect(splitDirectivePrefix('/v1/chat/completions')).toEqual({ url: '/v1/chat/completions' });
  });
});
