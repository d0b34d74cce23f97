"""verify_enrollment_signature on the vectors the server's signing code makes (AGGREGATION_ENROLLMENT_VECTORS names
the file, shared with the TypeScript and Go clients), and on what the sandbox's enrollment widget hands an application
(AGGREGATION_BASE_URL; without it that test is skipped)."""

import json
import os
import unittest

import httpx
from aggregation_client import verify_enrollment_signature

with open(os.environ["AGGREGATION_ENROLLMENT_VECTORS"], encoding="utf-8") as file:
    VECTORS = json.load(file)

BASE_URL = os.environ.get("AGGREGATION_BASE_URL")


def fields(case: dict) -> dict:
    return {
        "access_token": case["access_token"],
        "user_id": case["user_id"],
        "enrollment_id": case["enrollment_id"],
        "signatures": case["signatures"],
        "nonce": case["nonce"],
        "environment": case["environment"],
    }


class SharedVectors(unittest.TestCase):
    def test_every_case_by_the_key_alone_and_by_the_key_with_its_id(self) -> None:
        self.assertTrue(any(case["valid"] for case in VECTORS["cases"]) and not all(case["valid"] for case in VECTORS["cases"]))
        for case in VECTORS["cases"]:
            with self.subTest(case["name"]):
                self.assertIs(verify_enrollment_signature(public_key=case["public_key"], **fields(case)), case["valid"])
                signing_key = {"id": case["key_id"], "public_key": case["public_key"]}
                self.assertIs(verify_enrollment_signature(public_key=signing_key, **fields(case)), case["valid"])

    def test_a_public_key_that_is_not_32_bytes_is_a_value_error(self) -> None:
        case = VECTORS["cases"][0]
        for public_key in ("", "not base64!", case["public_key"][:20]):
            with self.subTest(public_key), self.assertRaises(ValueError):
                verify_enrollment_signature(public_key=public_key, **fields(case))


@unittest.skipUnless(BASE_URL, "AGGREGATION_BASE_URL names no sandbox server")
class AgainstTheSandbox(unittest.TestCase):
    def test_an_enrollment_through_the_widget_verifies_for_its_nonce_only(self) -> None:
        with httpx.Client(base_url=BASE_URL) as sandbox:
            session = sandbox.post("/sandbox/connect/sessions", json={"application_id": "app_default", "nonce": "python-nonce"}).json()
            done = sandbox.post(
                f"/sandbox/connect/sessions/{session['id']}/credentials",
                json={"application_id": "app_default", "institution_id": "chase", "username": "username", "password": "password"},
            ).json()
            result = done["result"]
            signing_key = sandbox.get("/sandbox/application", auth=(result["access_token"], "")).json()["signing_key"]
        signed = {
            "access_token": result["access_token"],
            "user_id": result["user"]["id"],
            "enrollment_id": result["enrollment"]["id"],
            "signatures": result["signatures"],
        }
        self.assertTrue(verify_enrollment_signature(public_key=signing_key, nonce="python-nonce", **signed))
        self.assertFalse(verify_enrollment_signature(public_key=signing_key, nonce="another-run", **signed))
        self.assertFalse(verify_enrollment_signature(public_key=signing_key, nonce="python-nonce", **{**signed, "access_token": "test_token_forged"}))


if __name__ == "__main__":
    unittest.main()
