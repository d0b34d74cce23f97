import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import example.aggregation.client.ApiClient;
import example.aggregation.client.api.PaymentsApi;

public class ListPaymentSchemes {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setBasePath(System.getenv("AGGREGATION_BASE_URL"));
    // HTTP Basic: the access token as the username, an empty password.
    client.setUsername(System.getenv("AGGREGATION_TOKEN"));
    client.setPassword("");
    client.addDefaultHeader("Service-Version", "2019-07-01");
    // The client's models are the current version's; this answer's shape in 2019-07-01 differs: read it as JSON
    // through the client's authenticated connection.
    String body;
    try (okhttp3.Response response = new PaymentsApi(client).listPaymentSchemesCall(System.getenv("ACCOUNT_ID"), null, null).execute()) {
      body = response.body().string();
      if (response.code() != 200) throw new IllegalStateException(response.code() + ": " + body);
    }
    // Keyed by "scheme" in 2019-07-01.
    for (JsonElement scheme : JsonParser.parseString(body).getAsJsonObject().getAsJsonArray("schemes")) {
      System.out.println(scheme.getAsJsonObject().get("scheme").getAsString());
    }
  }
}
