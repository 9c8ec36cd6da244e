import torch

import time

def measure_time(device_name : str) -> None :
    X_mixed = torch.randn(1000, 1000, dtype=torch.float16, device=device_name)
    Y_mixed = torch.randn(1000, 1000, dtype=torch.float16, device=device_name)

    X_full = torch.randn(1000, 1000, dtype=torch.float32, device=device_name)
    Y_full = torch.randn(1000, 1000, dtype=torch.float32, device=device_name)

    start = time.time()
    Z_mixed = torch.matmul(X_mixed, Y_mixed)
    end = time.time()
    time_float16 = end - start
    print("float16 :", time_float16)

    start = time.time()
    Z_full = torch.matmul(X_full, Y_full)
    end = time.time()
    time_float32 = end - start
    print("float32 :", time_float32)

    print(time_float16 / time_float32)

    return None

def main() -> int :

    measure_time('cuda')

    measure_time('cpu')

    return 0

if __name__ == '__main__' :
    main()
