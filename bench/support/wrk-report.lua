-- Loaded by bench/support/wrk.ts. Request headers come from the environment, so the API key never shows in a
-- process list; done() prints one JSON line with the full latency distribution (microseconds) for the report.
wrk.headers["Authorization"] = os.getenv("WRK_AUTHORIZATION")
wrk.headers["Accept-Encoding"] = os.getenv("WRK_ACCEPT_ENCODING")
-- A JSON body turns the request into a POST (GraphQL operations).
local body = os.getenv("WRK_BODY")
if body ~= nil and body ~= "" then
  wrk.method = "POST"
  wrk.body = body
  wrk.headers["Content-Type"] = "application/json"
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"durationUs":%d,"bytes":%d,"errors":%d,"non2xx":%d,' ..
      '"p50":%d,"p90":%d,"p99":%d,"max":%d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write + e.timeout, e.status,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
