import os

import httpx

# Creates an application; no access token needed. Keep its key, which is shown only here.
response = httpx.post(f"{os.environ['AGGREGATION_BASE_URL']}/sandbox/applications", json={})
response.raise_for_status()
application = response.json()

# Enrollments made with the key (the HTTP Basic username) belong to the new application.
enrolled = httpx.post(
    f"{os.environ['AGGREGATION_BASE_URL']}/sandbox/enrollments",
    auth=(application["key"], ""),
    json={"username": "username", "password": "password"},
)
enrolled.raise_for_status()
print(application["application"]["id"], enrolled.json()["access_token"])
