import example.aggregation.client.ApiClient;
import example.aggregation.client.api.PaymentsApi;
import example.aggregation.client.model.CreatePaymentRequest;
import example.aggregation.client.model.MfaChallenge;
import example.aggregation.client.model.PayeeType;
import example.aggregation.client.model.Payment;
import example.aggregation.client.model.PaymentOrMfaChallenge;
import example.aggregation.client.model.PaymentPayeeInput;
import example.aggregation.client.model.PaymentSchemeName;
import java.util.UUID;

public class CreatePayment {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    CreatePaymentRequest request = new CreatePaymentRequest()
        .amount("25.00")
        .memo("Dinner split")
        .payee(new PaymentPayeeInput()
            .scheme(PaymentSchemeName.ZELLE)
            .address("jane.doe@example.com")
            .name("Jane Doe")
            .type(PayeeType.PERSON));
    // One Idempotency-Key per payment: keep it to retry this same payment safely.
    String idempotencyKey = UUID.randomUUID().toString();
    PaymentOrMfaChallenge answer = new PaymentsApi(client).createPayment(System.getenv("ACCOUNT_ID"), request, idempotencyKey, null);
    if (answer.getActualInstance() instanceof MfaChallenge) {
      System.out.println("MFA required " + ((MfaChallenge) answer.getActualInstance()).getConnectToken() + " " + idempotencyKey);
    } else {
      Payment payment = answer.getPayment();
      System.out.println("Payment " + payment.getId() + " " + payment.getReference());
    }
  }
}
