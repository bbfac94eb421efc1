-- POST one fixed request: the body comes from the file named by BENCH_BODY_FILE, extra headers from
-- BENCH_HEADERS ("name: value" lines). Only wrk.method/body/headers are set, no request() function,
-- so wrk builds the request once and the script costs nothing per request (nor per answer, unless
-- BENCH_MAX_REQUESTS asks for a count).
-- done() prints the exact figures (microseconds) as one JSON line for the harness.

local function read_file(path)
  local file = assert(io.open(path, "rb"), "cannot open BENCH_BODY_FILE " .. tostring(path))
  local content = file:read("*a")
  file:close()
  return content
end

wrk.method = "POST"
wrk.body = read_file(os.getenv("BENCH_BODY_FILE"))
wrk.headers["Content-Type"] = "application/json"
for line in (os.getenv("BENCH_HEADERS") or ""):gmatch("[^\n]+") do
  local name, value = line:match("^([^:]+):%s*(.-)%s*$")
  if name then
    wrk.headers[name] = value
  end
end

-- BENCH_MAX_REQUESTS=n (one thread): stop after n answers and print BENCH_STOPPED, for the harness to
-- end the run with SIGINT (wrk itself always sleeps its whole -d). Defined only when asked for: with a
-- response() function wrk hands every answer to Lua, which the timed scenarios must not pay for.
local max_requests = tonumber(os.getenv("BENCH_MAX_REQUESTS") or "")
if max_requests then
  local answered = 0
  function response()
    answered = answered + 1
    if answered == max_requests then
      io.write("BENCH_STOPPED\n")
      io.flush()
      wrk.thread:stop()
    end
  end
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"durationUs":%d,"bytes":%d,"non2xx":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d,' ..
      '"meanUs":%.3f,"p50Us":%.1f,"p90Us":%.1f,"p99Us":%.1f,"maxUs":%.1f}\n',
    summary.requests, summary.duration, summary.bytes, errors.status, errors.connect, errors.read, errors.write,
    errors.timeout, latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max
  ))
end
