//! Smoke program of openapi-generator's rust client: the shared scenario (apps/polyglot/src/smoke.ts) against a
//! running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
use aggregation_openapi_client::apis::configuration::Configuration;
use aggregation_openapi_client::apis::{accounts_api, payments_api, transactions_api, Error};
use aggregation_openapi_client::models::{
    self,
    CreatePayeeRequest, CreatePaymentRequest, PayeeOrMfaChallenge, PayeeType, PaymentOrMfaChallenge, PaymentPayeeInput,
    PaymentSchemeName,
};

const PAGE_SIZE: i32 = 25;

type Outcome = Result<String, String>;

fn report(name: &str, outcome: Outcome, failed: &mut bool) {
    match outcome {
        Ok(detail) => println!("step {name}: ok {detail}"),
        Err(why) => {
            *failed = true;
            println!("step {name}: fail {}", why.replace('\n', " "));
        }
    }
}

fn is_money(value: &str) -> bool {
    let (units, cents) = value.trim_start_matches('-').split_once('.').unwrap_or(("", ""));
    !units.is_empty() && units.chars().all(|c| c.is_ascii_digit()) && cents.len() == 2 && cents.chars().all(|c| c.is_ascii_digit())
}

fn payee() -> PaymentPayeeInput {
    let mut payee = PaymentPayeeInput::new(PaymentSchemeName::Zelle, "jane.doe@example.com".into());
    payee.name = Some("Jane Doe".into());
    payee.r#type = Some(PayeeType::Person);
    payee
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let mut configuration = Configuration::new();
    configuration.base_path = std::env::var("AGGREGATION_BASE_URL").expect("set AGGREGATION_BASE_URL");
    // HTTP Basic with the token as the username and an empty password.
    configuration.basic_auth = Some((std::env::var("AGGREGATION_TOKEN").expect("set AGGREGATION_TOKEN"), Some(String::new())));
    let c = &configuration;
    let mut failed = false;
    let mut checking = String::new();

    let outcome = match accounts_api::list_accounts(c, None).await {
        Ok(accounts) => {
            checking = accounts.iter().find(|a| a.links.payments.is_some()).map(|a| a.id.clone()).unwrap_or_default();
            if checking.is_empty() { Err("no account with payments".into()) } else { Ok(format!("{} accounts", accounts.len())) }
        }
        Err(error) => Err(error.to_string()),
    };
    report("accounts", outcome, &mut failed);

    let outcome: Outcome = async {
        let (mut seen, mut pages, mut from_id) = (Vec::new(), 0, None::<String>);
        loop {
            let page = transactions_api::list_transactions(c, &checking, Some(PAGE_SIZE), from_id.as_deref(), None, None, None)
                .await
                .map_err(|e| e.to_string())?;
            pages += 1;
            seen.extend(page.iter().map(|t| t.id.clone()));
            if page.len() < PAGE_SIZE as usize || pages > 1000 {
                break;
            }
            from_id = page.last().map(|t| t.id.clone());
        }
        let everything = transactions_api::list_transactions(c, &checking, None, None, None, None, None).await.map_err(|e| e.to_string())?;
        let all: Vec<String> = everything.into_iter().map(|t| t.id).collect();
        if all != seen {
            return Err(format!("the pages ({}) differ from the full list ({})", seen.len(), all.len()));
        }
        Ok(format!("{} transactions in {pages} pages of {PAGE_SIZE}", seen.len()))
    }
    .await;
    report("transactions", outcome, &mut failed);

    let outcome = match accounts_api::get_account_balances(c, &checking, None).await {
        Ok(b) if is_money(&b.ledger) && is_money(&b.available) => Ok(format!("ledger {}, available {}", b.ledger, b.available)),
        Ok(b) => Err(format!("balances {b:?}")),
        Err(error) => Err(error.to_string()),
    };
    report("balances", outcome, &mut failed);

    // The payment account as a `&str`, which the closures below copy.
    let account = checking.as_str();
    let pay = |memo: &'static str| {
        let key = format!("smoke-{account}-{memo}");
        async move { payments_api::create_payment(c, account, CreatePaymentRequest::new("1.00".into(), memo.into(), payee()), Some(&key), None).await }
    };
    let outcome = match pay("mfa").await {
        Ok(PaymentOrMfaChallenge::MfaChallenge(challenge)) if !challenge.connect_token.is_empty() => Ok("challenge with a connect_token".into()),
        Ok(other) => Err(format!("no MFA challenge read: {other:?}")),
        Err(error) => Err(error.to_string()),
    };
    report("payment_mfa", outcome, &mut failed);

    let outcome = match pay("Lunch").await {
        Ok(PaymentOrMfaChallenge::Payment(payment)) if payment.id.starts_with("pay_") && payment.amount == "1.00" => {
            Ok(format!("Payment {}", payment.id))
        }
        Ok(other) => Err(format!("no Payment read: {other:?}")),
        Err(error) => Err(error.to_string()),
    };
    report("payment", outcome, &mut failed);

    let create_payee = |name: &'static str, address: &'static str| {
        let request = CreatePayeeRequest::new(PaymentSchemeName::Zelle, address.into(), name.into(), PayeeType::Person);
        let key = format!("smoke-{account}-payee-{address}");
        async move { payments_api::create_payee(c, account, request, Some(&key), None).await }
    };
    let outcome = match create_payee("mfa", "mfa@example.com").await {
        Ok(PayeeOrMfaChallenge::MfaChallenge(challenge)) if !challenge.connect_token.is_empty() => Ok("challenge with a connect_token".into()),
        Ok(other) => Err(format!("no MFA challenge read: {other:?}")),
        Err(error) => Err(error.to_string()),
    };
    report("payee_mfa", outcome, &mut failed);

    let outcome = match create_payee("Sam Lee", "sam.lee@example.com").await {
        Ok(PayeeOrMfaChallenge::Payee(payee)) if payee.name == "Sam Lee" => Ok(format!("Payee {}", payee.name)),
        Ok(other) => Err(format!("no Payee read: {other:?}")),
        Err(error) => Err(error.to_string()),
    };
    report("payee", outcome, &mut failed);

    let outcome = match accounts_api::get_account(c, "acc_does_not_exist", None).await {
        // Its error enum is untagged and every status has the same model, so the first variant (Status400) matches
        // whatever the status: read the status, and the body as the Error model.
        Err(Error::ResponseError(content)) => match serde_json::from_str::<models::Error>(&content.content) {
            Ok(body) if content.status.as_u16() == 404 => Ok(format!("404 {}", body.error.code)),
            other => Err(format!("status {}, {other:?}", content.status)),
        },
        Ok(_) => Err("an unknown account was found".into()),
        Err(error) => Err(error.to_string()),
    };
    report("error", outcome, &mut failed);

    std::process::exit(if failed { 1 } else { 0 });
}
