import os

import httpx

# Enrolls a sandbox user; no access token needed for this one.
response = httpx.post(
    f"{os.environ['AGGREGATION_BASE_URL']}/sandbox/enrollments",
    json={"username": "username", "password": "password"},
)
response.raise_for_status()
enrollment = response.json()
print(enrollment["access_token"], [account["id"] for account in enrollment["accounts"]])
