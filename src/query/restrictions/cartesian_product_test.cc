#include "query/restrictions/cartesian_product.h"

#include <gtest/gtest.h>

namespace sibyl::query {
namespace {

using Combinations = std::vector<std::vector<BytesView>>;

TEST(CartesianProductTest, FirstColumnVariesSlowest) {
  EXPECT_EQ(CartesianProduct({{"a", "b"}, {"1", "2", "3"}}),
            (Combinations{{"a", "1"}, {"a", "2"}, {"a", "3"}, {"b", "1"}, {"b", "2"}, {"b", "3"}}));
}

TEST(CartesianProductTest, OneValuePerColumnIsOneCombination) {
  EXPECT_EQ(CartesianProduct({{"k"}, {"c"}}), (Combinations{{"k", "c"}}));
}

TEST(CartesianProductTest, NoColumnsIsOneEmptyCombination) {
  EXPECT_EQ(CartesianProduct({}), (Combinations{{}}));
}

TEST(CartesianProductTest, AColumnWithoutValuesLeavesNone) {
  EXPECT_TRUE(CartesianProduct({{"a", "b"}, {}}).empty());
}

}  // namespace
}  // namespace sibyl::query
