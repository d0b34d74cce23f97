import json
import os

import httpx

sandbox = httpx.Client(
    base_url=os.environ["AGGREGATION_BASE_URL"],
    auth=(os.environ["AGGREGATION_TOKEN"], ""),
)

# Follows the request log for 3 seconds (without timeout_seconds, until the stream is closed).
with sandbox.stream("GET", "/sandbox/logs", params={"timeout_seconds": 3}) as response:
    response.raise_for_status()
    # A request of this token, which shows up in the stream.
    sandbox.get("/accounts").raise_for_status()
    for line in response.iter_lines():
        if line:
            entry = json.loads(line)
            print(entry["method"], entry["path"], entry["status"], f"{entry['duration_ms']}ms", entry["request_id"])
