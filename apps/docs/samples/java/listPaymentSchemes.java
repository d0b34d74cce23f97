import example.aggregation.client.ApiClient;
import example.aggregation.client.api.PaymentsApi;
import example.aggregation.client.model.PaymentScheme;

public class ListPaymentSchemes {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    for (PaymentScheme scheme : new PaymentsApi(client).listPaymentSchemes(System.getenv("ACCOUNT_ID"), null).getSchemes()) {
      System.out.println(scheme.getName());
    }
  }
}
