import os

import httpx

# No access token needed: the links to follow.
response = httpx.get(
    f"{os.environ['BASE_URL']}/",
    headers={"Service-Version": "2020-10-12"},
)
response.raise_for_status()
links = response.json()["links"]
print(links["accounts"], links["institutions"])
