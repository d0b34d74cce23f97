import httpx

# No access token needed.
response = httpx.get(
    "http://localhost:3000/institutions",
    headers={"Service-Version": "2020-10-12"},
)
response.raise_for_status()
for institution in response.json():
    print(institution["id"], institution["name"], ", ".join(institution["products"]))
