from aggregation_client import SIGNATURE_HEADER, WebhookVerificationError, verify_webhook


def handle(body: bytes, headers: dict[str, str]) -> int:
    """Your webhook endpoint: the raw body as received, and the request's headers."""
    try:
        event = verify_webhook(body, headers.get(SIGNATURE_HEADER), ["whsec_current", "whsec_next"])
    except WebhookVerificationError as error:
        print("refused:", error.reason)
        return 400
    print(event["type"], event["payload"])
    return 200
