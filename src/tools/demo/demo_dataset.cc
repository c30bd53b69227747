#include "tools/demo/demo_dataset.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <map>
#include <random>
#include <set>

#include "types/uuid.h"

namespace sibyl::tools::demo {
namespace {

constexpr const char* kGuideUser = "550e8400-e29b-41d4-a716-446655440000";
// The user whose comments the five-steps paper queries.
constexpr const char* kPaperUser = "2506535a-4999-438d-8682-d5a739596343";

constexpr int64_t kHour = 3600 * 1000LL;
constexpr int64_t kDay = 24 * kHour;

std::tm Utc(int64_t millis) {
  const std::time_t seconds = static_cast<std::time_t>(millis / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm;
}

// '2026-01-26 10:30:00.000+0000', quoted.
std::string Timestamp(int64_t millis) {
  const std::tm tm = Utc(millis);
  char text[64];
  std::snprintf(text, sizeof text, "'%04d-%02d-%02d %02d:%02d:%02d.%03d+0000'", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(millis % 1000));
  return text;
}

std::string YearMonth(int64_t millis) {
  const std::tm tm = Utc(millis);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02d", tm.tm_year + 1900, tm.tm_mon + 1);
  return text;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  return out + "'";
}

// Milliseconds of a UTC date and time.
int64_t Millis(int year, int month, int day, int hour = 0, int minute = 0) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  return static_cast<int64_t>(timegm(&tm)) * 1000;
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : random_(seed) {}

  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(random_); }
  int64_t Between(int64_t low, int64_t high) {
    return std::uniform_int_distribution<int64_t>(low, high)(random_);
  }
  template <typename T, size_t N>
  const T& Pick(const std::array<T, N>& items) {
    return items[Below(N)];
  }

  std::string RandomUuid() {
    std::array<uint8_t, 16> bytes{};
    for (auto& b : bytes) b = static_cast<uint8_t>(Below(256));
    bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0F) | 0x40);
    bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3F) | 0x80);
    return types::Uuid::FromBytes(
               BytesView(reinterpret_cast<const char*>(bytes.data()), bytes.size()))
        .ToString();
  }

  // A version 1 UUID for the moment `millis`, unique within the generator.
  std::string TimeUuid(int64_t millis) {
    const int64_t ticks = millis * 10000 + types::Uuid::kUnixEpochIn100ns + (sequence_++ % 10000);
    return types::Uuid::TimeBased(ticks, node_).ToString();
  }

 private:
  std::mt19937_64 random_;
  uint64_t node_ = 0x8d4a6a1b2c3d4e5fULL;
  uint64_t sequence_ = 0;
};

const std::array<std::string, 24> kFirstNames = {
    "Ada",    "Grace",    "Alan",    "Edsger", "Barbara",   "Donald",  "Margaret", "Ken",
    "Linus",  "Radia",    "Frances", "John",   "Leslie",    "Niklaus", "Shafi",    "Tim",
    "Sophie", "Yukihiro", "Guido",   "Anita",  "Katherine", "Dennis",  "Hedy",     "Vint"};
const std::array<std::string, 20> kLastNames = {
    "Lovelace",   "Hopper",      "Turing",  "Dijkstra",  "Liskov", "Knuth",   "Hamilton",
    "Thompson",   "Torvalds",    "Perlman", "Allen",     "Backus", "Lamport", "Wirth",
    "Goldwasser", "Berners-Lee", "Wilson",  "Matsumoto", "Borg",   "Cerf"};
const std::array<std::string, 10> kCities = {"Toronto", "Austin",  "Lyon",  "Melbourne", "Pune",
                                             "Leeds",   "Nairobi", "Osaka", "Recife",    "Gdansk"};
const std::array<std::string, 12> kStreets = {
    "Queen St",  "Main St", "Rue de la Paix", "King Rd",    "Elm Ave",   "Harbour Blvd",
    "Church Ln", "Mill Rd", "Park Ave",       "Station Rd", "Market St", "Lake Dr"};
const std::array<std::string, 16> kAdjectives = {
    "Funny",  "Sleepy", "Amazing", "Tiny",   "Epic",  "Relaxing", "Surprising", "Daring",
    "Clumsy", "Happy",  "Curious", "Grumpy", "Brave", "Lazy",     "Noisy",      "Gentle"};
const std::array<std::string, 12> kSubjects = {"Cat",   "Dog",      "Parrot", "Goat",
                                               "Otter", "Hedgehog", "Robot",  "Toddler",
                                               "Chef",  "Drummer",  "Skater", "Raccoon"};
const std::array<std::string, 10> kActions = {
    "Meets a Cucumber", "Learns to Swim", "Plays the Piano", "Goes Camping", "Discovers Snow",
    "Tries Sushi",      "Builds a Fort",  "Chases a Laser",  "Takes a Bath", "Wins the Race"};
const std::array<std::string, 18> kTags = {
    "cats",   "dogs",   "funny",    "cute", "music", "cooking", "travel", "diy",  "wildlife",
    "robots", "sports", "tutorial", "snow", "beach", "family",  "pets",   "fail", "wholesome"};
const std::array<std::string, 14> kComments = {
    "I laughed I cried; it was better than Cats the musical",
    "Cute cat!",
    "Can't wait for the sequel!",
    "Watched it five times already.",
    "Who else is here in 2026?",
    "The ending got me.",
    "Sound on for this one.",
    "This made my day.",
    "How did you film that?",
    "Sharing with my whole family.",
    "Underrated video.",
    "The music is perfect.",
    "I need more of this.",
    "Best thing on the internet today."};
const std::array<std::string, 6> kActivityTypes = {"login",  "logout",    "purchase",
                                                   "search", "view_item", "add_to_cart"};
const std::array<std::string, 6> kDevices = {"iPhone 15 Pro",   "Pixel 8",  "Firefox on Linux",
                                             "Chrome on macOS", "iPad Air", "Galaxy S24"};

// The metrics the demo records, each a random walk from its first reading.
struct DemoMetric {
  const char* name;
  double first_reading;
};
constexpr std::array<DemoMetric, 2> kDemoMetrics = {{{"cpu_usage", 35.0}, {"memory_usage", 61.0}}};

struct User {
  std::string id;
  std::string first;
  std::string last;
  std::string email;
};

struct Video {
  std::string id;
  std::string user;
  std::string name;
  std::string preview;
  int64_t added = 0;
};

std::string ActivityData(Generator& g, const std::string& type) {
  char text[160];
  if (type == "purchase" || type == "add_to_cart") {
    std::snprintf(text, sizeof text, "{\"item_id\": \"SKU%05d\", \"amount\": %d.%02d}",
                  static_cast<int>(g.Below(100000)), static_cast<int>(g.Between(3, 400)),
                  static_cast<int>(g.Below(100)));
  } else if (type == "search") {
    std::snprintf(text, sizeof text, "{\"query\": \"%s %s\"}", g.Pick(kAdjectives).c_str(),
                  g.Pick(kSubjects).c_str());
  } else if (type == "view_item") {
    std::snprintf(text, sizeof text, "{\"item_id\": \"SKU%05d\"}",
                  static_cast<int>(g.Below(100000)));
  } else {
    std::snprintf(text, sizeof text, "{\"session\": \"s-%06d\"}",
                  static_cast<int>(g.Below(1000000)));
  }
  return text;
}

// The data statements, generated in a fixed order: users first (the other
// tables refer to them), then videos, comments, ratings, user activity and
// metrics. One generator draws every random choice, so the order is part
// of what a seed produces.
class DemoStatements {
 public:
  DemoStatements(uint64_t seed, int64_t now_millis) : g_(seed), now_millis_(now_millis) {}

  // Users, each with credentials: one logged batch keeps the two in step.
  void AddUsers() {
    std::set<std::string> emails;
    for (int i = 0; i < 50; ++i) {
      User u;
      u.id = i == 0 ? kPaperUser : g_.RandomUuid();
      u.first = g_.Pick(kFirstNames);
      u.last = g_.Pick(kLastNames);
      std::string local = u.first + "." + u.last;
      for (char& c : local) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      u.email = local + "@example.com";
      for (int n = 2; emails.count(u.email) != 0; ++n) {
        u.email = local + std::to_string(n) + "@example.com";
      }
      emails.insert(u.email);
      const std::string address =
          "{unit: " + Quote(std::to_string(g_.Between(1, 40))) +
          ", street_number: " + Quote(std::to_string(g_.Between(1, 999))) +
          ", street_name: " + Quote(g_.Pick(kStreets)) + ", city: " + Quote(g_.Pick(kCities)) +
          ", prov_state: null, post_code: " + Quote(std::to_string(g_.Between(10000, 99999))) + "}";
      const std::string previous =
          g_.Below(3) == 0
              ? "[{unit: null, street_number: " + Quote(std::to_string(g_.Between(1, 99))) +
                    ", street_name: " + Quote(g_.Pick(kStreets)) +
                    ", city: " + Quote(g_.Pick(kCities)) + ", prov_state: null, post_code: null}]"
              : "[]";
      const int64_t created = now_millis_ - g_.Between(30, 700) * kDay;
      out_.push_back(
          "BEGIN BATCH "
          "INSERT INTO killrvideo.users (userid, firstname, lastname, email, "
          "created_date, address, previous_addresses) VALUES (" +
          u.id + ", " + Quote(u.first) + ", " + Quote(u.last) + ", " + Quote(u.email) + ", " +
          Timestamp(created) + ", " + address + ", " + previous +
          "); INSERT INTO killrvideo.user_credentials (email, password, userid) VALUES (" +
          Quote(u.email) + ", " + Quote("$2a$10$" + g_.RandomUuid().substr(0, 22)) + ", " + u.id +
          "); APPLY BATCH");
      users_.push_back(std::move(u));
    }
  }

  // Videos: the entity and its four denormalized copies in one logged batch.
  void AddVideos() {
    for (int i = 0; i < 200; ++i) {
      Video v;
      v.id = g_.RandomUuid();
      v.user = users_[g_.Below(users_.size())].id;
      v.name = "The " + g_.Pick(kAdjectives) + " " + g_.Pick(kSubjects) + " " + g_.Pick(kActions);
      v.preview = "https://cdn.killrvideo.example/previews/" + v.id.substr(0, 8) + ".jpg";
      // A fifth were uploaded today (UTC), so today's partition has a page.
      const int64_t today = now_millis_ / kDay * kDay;
      v.added = i < 40 ? g_.Between(today, now_millis_) : now_millis_ - g_.Between(0, 7 * kDay);
      std::set<std::string> tags;
      const size_t tag_count = 1 + g_.Below(3);
      while (tags.size() < tag_count) tags.insert(g_.Pick(kTags));
      std::string tag_set;
      for (const auto& t : tags) tag_set += (tag_set.empty() ? "" : ", ") + Quote(t);
      const std::string when = Timestamp(v.added);
      std::string batch =
          "BEGIN BATCH INSERT INTO killrvideo.videos (videoid, userid, name, description, "
          "location, location_type, preview_image_location, tags, added_date) VALUES (" +
          v.id + ", " + v.user + ", " + Quote(v.name) + ", " +
          Quote("A short video: " + v.name + ".") + ", " + Quote(g_.Pick(kCities)) + ", " +
          Quote(g_.Below(2) == 0 ? "city" : "park") + ", " + Quote(v.preview) + ", {" + tag_set +
          "}, " + when +
          "); INSERT INTO killrvideo.latest_videos (yyyymmdd, added_date, videoid, userid, name, "
          "preview_image_location) VALUES (" +
          Quote(DayBucket(v.added)) + ", " + when + ", " + v.id + ", " + v.user + ", " +
          Quote(v.name) + ", " + Quote(v.preview) +
          "); INSERT INTO killrvideo.user_videos (userid, added_date, videoid, name, "
          "preview_image_location) VALUES (" +
          v.user + ", " + when + ", " + v.id + ", " + Quote(v.name) + ", " + Quote(v.preview) +
          ");";
      for (const auto& t : tags) {
        batch +=
            " INSERT INTO killrvideo.videos_by_tag (tag, videoid, added_date, userid, name, "
            "preview_image_location, tagged_date) VALUES (" +
            Quote(t) + ", " + v.id + ", " + when + ", " + v.user + ", " + Quote(v.name) + ", " +
            Quote(v.preview) + ", " + when +
            "); INSERT INTO killrvideo.tags_by_letter "
            "(first_letter, tag) VALUES (" +
            Quote(t.substr(0, 1)) + ", " + Quote(t) + ");";
      }
      out_.push_back(batch + " APPLY BATCH");
      videos_.push_back(std::move(v));
    }
  }

  // Comments: one timeuuid, written to both tables in one logged batch. The
  // paper's user has a dozen.
  void AddComments() {
    for (int i = 0; i < 900; ++i) {
      const Video& v = videos_[g_.Below(videos_.size())];
      const std::string& user = i < 12 ? users_[0].id : users_[g_.Below(users_.size())].id;
      const int64_t when = std::min(now_millis_, v.added + g_.Between(60, 3 * 24 * 3600) * 1000);
      const std::string id = g_.TimeUuid(when);
      const std::string text = Quote(g_.Pick(kComments));
      out_.push_back(
          "BEGIN BATCH INSERT INTO killrvideo.comments_by_user (userid, commentid, "
          "videoid, comment) VALUES (" +
          user + ", " + id + ", " + v.id + ", " + text +
          "); INSERT INTO killrvideo.comments_by_video (videoid, commentid, userid, "
          "comment) VALUES (" +
          v.id + ", " + id + ", " + user + ", " + text + "); APPLY BATCH");
    }
  }

  // Ratings: counters, one increment per rating.
  void AddRatings() {
    for (const Video& v : videos_) {
      const int64_t ratings = g_.Between(0, 40);
      if (ratings == 0) continue;
      int64_t total = 0;
      for (int64_t r = 0; r < ratings; ++r) total += g_.Between(2, 5);
      out_.push_back("UPDATE killrvideo.video_ratings SET rating_counter = rating_counter + " +
                     std::to_string(ratings) + ", rating_total = rating_total + " +
                     std::to_string(total) + " WHERE videoid = " + v.id);
    }
  }

  // User activity, three tables in step (the guide's batch), December 2025
  // to February 2026; the guide's own user first.
  void AddUserActivity() {
    const int64_t from = Millis(2025, 12, 1);
    const int64_t to = Millis(2026, 3, 1);
    for (int u = 0; u < 12; ++u) {
      const std::string user = u == 0 ? kGuideUser : g_.RandomUuid();
      const int activities = u == 0 ? 150 : 60;
      std::set<int64_t> times;
      while (static_cast<int>(times.size()) < activities) {
        times.insert(g_.Between(from / 1000, to / 1000 - 1) * 1000);
      }
      for (const int64_t t : times) {
        const std::string type = g_.Pick(kActivityTypes);
        const std::string data = Quote(ActivityData(g_, type));
        const std::string device = Quote(g_.Pick(kDevices));
        const std::string ip = Quote("192.168." + std::to_string(g_.Between(0, 9)) + "." +
                                     std::to_string(g_.Between(2, 254)));
        const std::string when = Timestamp(t);
        out_.push_back(
            "BEGIN BATCH INSERT INTO user_activity.user_activities (user_id, activity_timestamp, "
            "activity_type, activity_data, device_info, ip_address) VALUES (" +
            user + ", " + when + ", " + Quote(type) + ", " + data + ", " + device + ", " + ip +
            "); INSERT INTO user_activity.user_activities_by_type (user_id, activity_type, "
            "activity_timestamp, activity_data, device_info, ip_address) VALUES (" +
            user + ", " + Quote(type) + ", " + when + ", " + data + ", " + device + ", " + ip +
            "); INSERT INTO user_activity.user_activities_by_month (user_id, year_month, "
            "activity_timestamp, activity_type, activity_data, device_info, ip_address) VALUES (" +
            user + ", " + Quote(YearMonth(t)) + ", " + when + ", " + Quote(type) + ", " + data +
            ", " + device + ", " + ip + "); APPLY BATCH");
      }
    }
  }

  // Metrics: a reading a minute for the last six hours, bucketed by hour.
  void AddMetrics() {
    const int64_t last_minute = now_millis_ / 60000 * 60000;
    for (const DemoMetric& metric : kDemoMetrics) {
      double value = metric.first_reading;
      for (int m = 0; m < 360; ++m) {
        const int64_t at = last_minute - m * 60000LL;
        value += static_cast<double>(g_.Between(-20, 20)) / 10.0;
        value = std::max(1.0, std::min(99.0, value));
        char reading[32];
        std::snprintf(reading, sizeof reading, "%.1f", value);
        out_.push_back(
            "INSERT INTO user_activity.metrics (metric_name, bucket, recorded_at, value, "
            "tags) VALUES (" +
            Quote(metric.name) + ", " + Timestamp(at / kHour * kHour) + ", " + Timestamp(at) +
            ", " + reading + ", {'host': 'web-" + std::to_string(1 + m % 3) +
            "', 'region': 'eu-west'})");
      }
    }
  }

  std::vector<std::string> Take() && { return std::move(out_); }

 private:
  Generator g_;
  const int64_t now_millis_;
  std::vector<User> users_;
  std::vector<Video> videos_;
  std::vector<std::string> out_;
};

}  // namespace

std::string DayBucket(int64_t millis) {
  const std::tm tm = Utc(millis);
  char text[16];
  std::snprintf(text, sizeof text, "%04d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
  return text;
}

std::vector<std::string> DemoSchema() {
  return {
      "CREATE KEYSPACE killrvideo WITH replication = "
      "{'class': 'SimpleStrategy', 'replication_factor': 1}",
      "CREATE TYPE killrvideo.address (unit text, street_number text, street_name text, "
      "city text, prov_state text, post_code text)",
      "CREATE TABLE killrvideo.users (userid uuid PRIMARY KEY, firstname text, lastname text, "
      "email text, created_date timestamp, address address, "
      "previous_addresses list<frozen<address>>)",
      "CREATE TABLE killrvideo.user_credentials (email text PRIMARY KEY, password text, "
      "userid uuid)",
      "CREATE TABLE killrvideo.videos (videoid uuid, userid uuid, name text, description text, "
      "location text, location_type text, preview_image_location text, tags set<text>, "
      "added_date timestamp, PRIMARY KEY (videoid))",
      "CREATE TABLE killrvideo.latest_videos (yyyymmdd text, added_date timestamp, "
      "videoid uuid, userid uuid, name text, preview_image_location text, "
      "PRIMARY KEY (yyyymmdd, added_date, videoid)) "
      "WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC)",
      "CREATE TABLE killrvideo.user_videos (userid uuid, added_date timestamp, videoid uuid, "
      "name text, preview_image_location text, PRIMARY KEY (userid, added_date, videoid)) "
      "WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC)",
      "CREATE TABLE killrvideo.comments_by_user (userid uuid, commentid timeuuid, videoid uuid, "
      "comment text, PRIMARY KEY (userid, commentid)) WITH CLUSTERING ORDER BY (commentid DESC)",
      "CREATE TABLE killrvideo.comments_by_video (videoid uuid, commentid timeuuid, userid uuid, "
      "comment text, PRIMARY KEY (videoid, commentid)) "
      "WITH CLUSTERING ORDER BY (commentid DESC)",
      "CREATE TABLE killrvideo.video_ratings (videoid uuid PRIMARY KEY, rating_counter counter, "
      "rating_total counter)",
      "CREATE TABLE killrvideo.videos_by_tag (tag text, videoid uuid, added_date timestamp, "
      "userid uuid, name text, preview_image_location text, tagged_date timestamp, "
      "PRIMARY KEY (tag, videoid))",
      "CREATE TABLE killrvideo.tags_by_letter (first_letter text, tag text, "
      "PRIMARY KEY (first_letter, tag))",
      "CREATE KEYSPACE user_activity WITH replication = "
      "{'class': 'SimpleStrategy', 'replication_factor': 1}",
      "CREATE TABLE user_activity.user_activities (user_id uuid, activity_timestamp timestamp, "
      "activity_type text, activity_data text, device_info text, ip_address text, "
      "PRIMARY KEY (user_id, activity_timestamp)) "
      "WITH CLUSTERING ORDER BY (activity_timestamp DESC)",
      "CREATE TABLE user_activity.user_activities_by_type (user_id uuid, activity_type text, "
      "activity_timestamp timestamp, activity_data text, device_info text, ip_address text, "
      "PRIMARY KEY ((user_id, activity_type), activity_timestamp)) "
      "WITH CLUSTERING ORDER BY (activity_timestamp DESC)",
      "CREATE TABLE user_activity.user_activities_by_month (user_id uuid, year_month text, "
      "activity_timestamp timestamp, activity_type text, activity_data text, device_info text, "
      "ip_address text, PRIMARY KEY ((user_id, year_month), activity_timestamp)) "
      "WITH CLUSTERING ORDER BY (activity_timestamp DESC)",
      "CREATE TABLE user_activity.metrics (metric_name text, bucket timestamp, "
      "recorded_at timestamp, value double, tags map<text, text>, "
      "PRIMARY KEY ((metric_name, bucket), recorded_at)) "
      "WITH CLUSTERING ORDER BY (recorded_at DESC) AND default_time_to_live = 2592000",
  };
}

std::vector<std::string> DemoData(uint64_t seed, int64_t now_millis) {
  DemoStatements demo(seed, now_millis);
  demo.AddUsers();
  demo.AddVideos();
  demo.AddComments();
  demo.AddRatings();
  demo.AddUserActivity();
  demo.AddMetrics();
  return std::move(demo).Take();
}

std::vector<DemoExample> DemoExamples(int64_t now_millis) {
  return {
      {"latest_videos keeps one partition per day, sorted newest first: the home page "
       "reads one partition.",
       "SELECT added_date, name FROM killrvideo.latest_videos WHERE yyyymmdd = '" +
           DayBucket(now_millis) + "' LIMIT 5;"},
      {"comments_by_user keeps a user's comments in one partition, ordered by timeuuid, "
       "newest first.",
       std::string("SELECT commentid, toTimestamp(commentid) AS timestamp, videoid, comment "
                   "FROM killrvideo.comments_by_user WHERE userid = ") +
           kPaperUser + " LIMIT 3;"},
      {"the month bucket bounds the partition; the clustering column answers the time range.",
       std::string("SELECT activity_timestamp, activity_type, device_info FROM "
                   "user_activity.user_activities_by_month WHERE user_id = ") +
           kGuideUser +
           " AND year_month = '2026-01' AND activity_timestamp >= '2026-01-15 00:00:00' "
           "AND activity_timestamp < '2026-01-20 00:00:00';"},
  };
}

}  // namespace sibyl::tools::demo
