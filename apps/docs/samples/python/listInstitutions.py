import os

import httpx

# No access token needed.
response = httpx.get(
    f"{os.environ['BASE_URL']}/institutions",
    headers={"Service-Version": "2020-10-12"},
)
response.raise_for_status()
for institution in response.json():
    print(institution["id"], institution["name"], ", ".join(institution["products"]))
