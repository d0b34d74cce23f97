import example.aggregation.client.ApiClient;
import example.aggregation.client.api.PaymentsApi;
import example.aggregation.client.model.CreatePayeeRequest;
import example.aggregation.client.model.MfaChallenge;
import example.aggregation.client.model.Payee;
import example.aggregation.client.model.PayeeOrMfaChallenge;
import example.aggregation.client.model.PayeeType;
import example.aggregation.client.model.PaymentSchemeName;
import java.util.UUID;

public class CreatePayee {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    CreatePayeeRequest request = new CreatePayeeRequest()
        .scheme(PaymentSchemeName.ZELLE)
        .address("jane.doe@example.com")
        .name("Jane Doe")
        .type(PayeeType.PERSON);
    // One Idempotency-Key per payee: keep it to retry this same request safely.
    String idempotencyKey = UUID.randomUUID().toString();
    // One answer, two shapes: the payee, or the MFA challenge (a connect_token) when the institution asks for it.
    PayeeOrMfaChallenge answer = new PaymentsApi(client).createPayee(System.getenv("ACCOUNT_ID"), request, idempotencyKey, null);
    if (answer.getActualInstance() instanceof MfaChallenge) {
      System.out.println("MFA required " + ((MfaChallenge) answer.getActualInstance()).getConnectToken());
    } else {
      Payee payee = answer.getPayee();
      System.out.println("Payee " + payee.getAddress() + " " + payee.getName());
    }
  }
}
