import example.aggregation.client.ApiClient;
import example.aggregation.client.api.PaymentsApi;
import example.aggregation.client.model.Payment;
import java.util.List;

public class ListPayments {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2020-10-12");
    List<Payment> payments = new PaymentsApi(client).listPayments(System.getenv("ACCOUNT_ID"), null);
    System.out.println(payments.size() + " payments");
    for (Payment payment : payments) {
      System.out.println(payment.getId() + " " + payment.getDate() + " " + payment.getAmount() + " " + payment.getPayee().getAddress());
    }
  }
}
